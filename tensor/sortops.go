package tensor

// sort, argsort and mask_select (spec "Ops and attrs added 2026-12"): their
// arguments, attrs and docs join the codec's tables here, with the two bool
// attrs they bring (descending and stable, both false when absent).

func init() {
	argNames[ClassSort] = []ArgSpec{{"a", "tensor"}}
	argNames[ClassMaskSelect] = []ArgSpec{{"a", "tensor"}, {"mask", "tensor (bool; other dtypes as the framework's t[mask] reads them)"}}

	attrKinds[ClassSort] = []string{"dim", "descending", "stable"}
	attrKinds[ClassMaskSelect] = nil

	attrDocs[ClassSort] = map[string]AttrSpec{
		"dim":        {Type: "int", Doc: "the dimension to sort along; absent: -1, the last"},
		"descending": {Type: "bool", Doc: "sort from the largest; absent: false (candle: asc = false; burn: sort_descending, argsort_descending; NumPy: from 2.5)"},
		"stable":     {Type: "bool", Doc: "keep equal elements in their input order; absent: false, their order is then unspecified"},
	}
}

// SortDim is the sort dim attr with its default (-1, the last dim).
func (a Attrs) SortDim() int {
	if a.Dim == nil {
		return -1
	}
	return *a.Dim
}

// IsDescending reports the descending attr (false when absent).
func (a Attrs) IsDescending() bool { return a.Descending != nil && *a.Descending }

// IsStable reports the stable attr (false when absent).
func (a Attrs) IsStable() bool { return a.Stable != nil && *a.Stable }

// setBool sets the bool attr called name (keepdim, descending, stable).
func (a *Attrs) setBool(name string, v bool) {
	switch name {
	case "keepdim":
		a.Keepdim = &v
	case "descending":
		a.Descending = &v
	case "stable":
		a.Stable = &v
	}
}

type boolAttr struct {
	name string
	v    bool
}

// sortBools lists the present sort attrs in the codec's order.
func (a Attrs) sortBools() []boolAttr {
	var fs []boolAttr
	if a.Descending != nil {
		fs = append(fs, boolAttr{"descending", *a.Descending})
	}
	if a.Stable != nil {
		fs = append(fs, boolAttr{"stable", *a.Stable})
	}
	return fs
}

// sortAttrParts appends the sort attrs in the case notation.
func (a Attrs) sortAttrParts(parts []string) []string {
	for _, f := range a.sortBools() {
		v := "false"
		if f.v {
			v = "true"
		}
		parts = append(parts, f.name+"="+v)
	}
	return parts
}

// maskSelectElements bounds the result of t[mask]: a mask selects at most
// every element of a; an integer mask (NumPy's and JAX's reading of u8,
// PyTorch's of i32/i64) gathers one slice of a's trailing dims per index.
func maskSelectElements(a, mask *Tensor) int64 {
	slice := int64(1)
	if a.Rank() > 0 {
		slice = satProduct(a.Shape[1:])
	}
	return max(int64(a.Len()), satMul(int64(mask.Len()), slice))
}
