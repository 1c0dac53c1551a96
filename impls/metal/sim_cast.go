package metal

// Twins of cast.metal: cast_FROM_TO for every pair of f32 f16 bf16 i64 u32
// u8, each contiguous and _strided: out[i] = static_cast<TO>(in[i]).

func init() {
	for _, from := range castTypes {
		for _, to := range castTypes {
			f := func(x val, _ []Arg) val { return convert(from, to, x) }
			name := "cast_" + from.String() + "_" + to.String()
			register("cast", name, "cbb", twin{thread: mapContiguous(from, to, 1, f)})
			register("cast", name+"_strided", "ccccbb", twin{thread: mapStrided(from, to, 4, f)})
		}
	}
}

// castTypes are the dtypes of cast.metal, in its order.
var castTypes = []mslType{tFloat, tHalf, tBfloat, tLong, tUint, tUchar}
