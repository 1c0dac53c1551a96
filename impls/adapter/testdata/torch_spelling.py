"""Checks how python/tfuzz_adapter.py (with tfuzz_frameworks.py) spells the ops added 2026-12 in PyTorch,
where no PyTorch is installed: the adapter's Torch class runs against a
recording stand-in for the torch module (unittest.mock), and each op must
reach the function the catalog names (tensor/catalog.go, the spec's
"spelling" column) with the arguments PyTorch takes; the exceptions PyTorch
raises for these ops (their messages as the model states them, from
PyTorch's sources) must map to the model's error classes. Prints OK at the end.
Run by impls/adapter's TestReferenceAdapterTorchSpelling."""

import os
import sys
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import tfuzz_adapter as A  # noqa: E402
import tfuzz_frameworks as F  # noqa: E402

torch = mock.MagicMock(name="torch")
torch.__version__ = "0+recording"


def cumsum(input, dim, *, dtype=None):  # noqa: A002 - torch.cumsum's signature: dim is required
    return ("cumsum", input, dim, dtype)


torch.cumsum.side_effect = cumsum
fw = F.Torch("pytorch/cpu", torch, None, "cpu")
failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def called(what, fn, *args, **kwargs):
    """fn (a mock) was called once, with these arguments; resets it."""
    if fn.call_args_list != [mock.call(*args, **kwargs)]:
        failures.append("%s: calls %r, want one %r" % (what, fn.call_args_list, mock.call(*args, **kwargs)))
    fn.reset_mock()


a, b, c = mock.MagicMock(name="a"), mock.MagicMock(name="b"), mock.MagicMock(name="c")

A.apply_op(fw, "broadcast_maximum", [a, b], {})
called("broadcast_maximum", torch.maximum, a, b)
check("broadcast_mul", A.apply_op(fw, "broadcast_mul", [a, b], {}), a * b)

A.apply_op(fw, "shift_left", [a, 8], {})
called("shift_left", torch.bitwise_left_shift, a, 8)
A.apply_op(fw, "shift_right", [3, b], {})
called("shift_right", torch.bitwise_right_shift, 3, b)

A.apply_op(fw, "where", [c, a, 0.5], {})
called("where", torch.where, c, a, 0.5)

A.apply_op(fw, "clamp", [a, None, 2.0], {})
called("clamp without min", torch.clamp, a, None, 2.0)
A.apply_op(fw, "clamp", [a, b, c], {})
called("clamp with tensor bounds", torch.clamp, a, b, c)

A.apply_op(fw, "cat", [a, b, c], {"dim": -1})
called("cat", torch.cat, [a, b, c], dim=-1)

check("sort", A.apply_op(fw, "sort", [a], {}), torch.sort.return_value.values)
called("sort", torch.sort, a, dim=-1, descending=False, stable=False)
check("argsort", A.apply_op(fw, "argsort", [a], {"dim": 0, "descending": True, "stable": True}), torch.sort.return_value.indices)
called("argsort", torch.sort, a, dim=0, descending=True, stable=True)

check("mask_select", A.apply_op(fw, "mask_select", [a, b], {}), a[b])

A.apply_op(fw, "full", [], {"shape": [2, 3], "value": "7", "dtype": "u8"})
called("full with a dtype", torch.full, (2, 3), 7, device="cpu", dtype=torch.uint8)
A.apply_op(fw, "full", [], {"shape": [1], "value": "true"})
called("full of true", torch.full, (1,), True, device="cpu")
A.apply_op(fw, "full", [], {"shape": [], "value": "-0.5"})
called("full of a float", torch.full, (), -0.5, device="cpu")

A.apply_op(fw, "matmul", [a, b], {})
called("matmul", torch.matmul, a, b)

A.apply_op(fw, "sum", [a], {"dtype": "f32"})
called("sum with a dtype", a.sum, dtype=torch.float32)
A.apply_op(fw, "prod", [a], {"dim": 1, "keepdim": True, "dtype": "i16"})
called("prod along dim with a dtype", a.prod, dim=1, keepdim=True, dtype=torch.int16)
A.apply_op(fw, "mean", [a], {"dim": 0, "dtype": "f64"})
called("mean along dim with a dtype", a.mean, dim=0, keepdim=False, dtype=torch.float64)
A.apply_op(fw, "max", [a], {"dim": 0})
called("max along dim", torch.amax, a, dim=0, keepdim=False)

check("cumsum along dim with a dtype", A.apply_op(fw, "cumsum", [a], {"dim": 1, "dtype": "i32"}), ("cumsum", a, 1, torch.int32))
torch.cumsum.reset_mock()
A.apply_op(fw, "from_literal", [], {"literal": "[1, 2]", "dtype": "f16"})
called("from_literal with a dtype", torch.tensor, [1, 2], device="cpu", dtype=torch.float16)
A.apply_op(fw, "arange", [], {"end": "3", "dtype": "f32"})
called("arange with a dtype", torch.arange, 0, 3, device="cpu", dtype=torch.float32)

# cumsum without dim: torch.cumsum(a) raises TypeError, an error of class Other
out = A.outcome_of(fw, {"op": "cumsum", "args": [{"dtype": "i64", "shape": [2], "data": [1, 2]}], "attrs": {}})
check("cumsum without dim", (out.get("error") or {}).get("class"), "Other")
check("cumsum without dim raises TypeError", (out.get("error") or {}).get("message", "").split(":")[0], "TypeError")

# PyTorch's exceptions for the new ops (messages as the model states them)
for op, exc, cls in (
        ("where", RuntimeError("where expected condition to be a boolean tensor, but got a tensor with dtype Byte"), "UnsupportedDType"),
        ("where", NotImplementedError("\"where_cpu\" not implemented for 'UInt16'"), "UnsupportedDType"),
        ("clamp", RuntimeError("clamp is not supported for complex types"), "UnsupportedDType"),
        ("clamp", RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None"), "Other"),
        ("clamp", RuntimeError("value cannot be converted to type uint8_t without overflow"), "OutOfRange"),
        ("cat", RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated"), "ShapeMismatch"),
        ("cat", RuntimeError("Tensors must have same number of dimensions: got 1 and 2"), "ShapeMismatch"),
        ("cat", RuntimeError("Sizes of tensors must match except in dimension 1. Expected size 2 but got size 1 for tensor number 1 in the list."), "ShapeMismatch"),
        ("cat", IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)"), "IndexOutOfRange"),
        ("sort", IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 2)"), "IndexOutOfRange"),
        ("sort", NotImplementedError("\"sorting_kernel_method_name\" not implemented for 'ComplexFloat'"), "UnsupportedDType"),
        ("argsort", TypeError("Sort currently does not support complex dtypes on CUDA."), "UnsupportedDType"),
        ("mask_select", IndexError("tensors used as indices must be long, int, byte or bool tensors"), "IndexDType"),
        ("mask_select", IndexError("The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3] at index 0"), "ShapeMismatch"),
        ("mask_select", IndexError("index 5 is out of bounds for dimension 0 with size 3"), "IndexOutOfRange"),
        ("mask_select", IndexError("too many indices for tensor of dimension 1"), "IndexOutOfRange"),
        ("matmul", RuntimeError("expected m1 and m2 to have the same dtype, but got: float != double"), "DTypeMismatch"),
        ("matmul", RuntimeError("dot : expected both vectors to have same dtype, but found Float and Double"), "DTypeMismatch"),
        ("matmul", RuntimeError("mat1 and mat2 shapes cannot be multiplied (1x2 and 3x1)"), "ShapeMismatch"),
        ("matmul", RuntimeError("both arguments to matmul need to be at least 1D, but they are 0D and 1D"), "ShapeMismatch"),
        ("matmul", RuntimeError("inconsistent tensor size, expected tensor [2] and src [3] to have the same number of elements, but got 2 and 3 elements respectively"), "ShapeMismatch"),
        ("matmul", RuntimeError("Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."), "ShapeMismatch"),
        ("matmul", NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'"), "UnsupportedDType"),
        ("shift_left", NotImplementedError("\"lshift_cpu\" not implemented for 'Float'"), "UnsupportedDType"),
        ("full", RuntimeError("value cannot be converted to type uint8_t without overflow"), "OutOfRange"),
):
    check("%s raising %r" % (op, exc), A.classify(exc, F.error_text(exc), op), cls)

# the older ops keep the oracle's classes
check("an AxisError of a reduction", A.classify(IndexError("axis 1 is out of bounds for array of dimension 1"), "AxisError: axis 1 is out of bounds for array of dimension 1", "sum"), "OutOfRange")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("OK")
