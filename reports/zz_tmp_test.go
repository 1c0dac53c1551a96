package reports
import ("testing";"os";"github.com/tfuzz/tfuzz/tensor")
func TestZZWrite(t *testing.T) {
	for i, text := range []string{
		"neg(view(f32[2 3] [1, 2, 3, 4, 5, 6], permute=[1 0], slice=[0:3:2 0:2:1]))",
		"program(u8[2] [200, 100]): cast(arg0) to=i64; sum(step0)",
		"program(view(i32[3] [1, 2, 3], slice=[1:3:1]), i32[2] [5, 6]): add(arg0, arg1); mul(step0, 2); sum(step1) dim=0",
		"add(view(i8[1] [3], expand=[2 2]), i8 1)",
	} {
		c, err := tensor.ParseCase(text)
		if err != nil { t.Fatal(err) }
		for _, p := range []string{"numpy", "pytorch/cpu", "jax/cpu-x32", "candle/cpu-release", "burn/flex-release", "tenferro/traced"} {
			prog, err := NewProgram(p, c, "x")
			if err != nil { t.Fatal(err) }
			os.WriteFile("/tmp/repro/"+string(rune('a'+i))+"_"+prog.File, []byte(prog.Source), 0o644)
		}
	}
}
