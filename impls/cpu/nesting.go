package cpu

import (
	"errors"

	"github.com/tfuzz/tfuzz/tensor"
)

// nesting follows the lists of a literal (Python's or Rust's) read left to
// right, without building a tree: the stack of open lists (at most
// tensor.MaxRank), the shape along the first item at each level (the first
// path), and whether any list departs from it. A list off the first path is
// measured when it closes, which is always after the first-path list of its
// depth has closed; a leaf off the first path is compared with the depth of
// the first leaf, which it always follows. Reading is linear in the text.
type nesting struct {
	open    []openList
	shape   []int
	rank    int // the first leaf's depth; -1 before it
	ragged  bool
	scalars int
}

// openList is a list being read.
type openList struct {
	vec   bool // Rust: a vec! rather than an array
	first bool // on the first path
	items int
	lists bool // its items are lists (the first item decides)
}

// maxLiteralElements is tensor.MaxElements, a variable only so that a test
// reaches the limit with a small literal.
var maxLiteralElements = tensor.MaxElements

// errNesting is a literal nested too deep, too large, or holding scalars
// and lists side by side in one list.
var errNesting = errors.New("literal nested deeper than tensor.MaxRank, larger than tensor.MaxElements, or mixing scalars and lists")

func newNesting() nesting { return nesting{rank: -1} }

func (n *nesting) depth() int { return len(n.open) }

// top is the innermost open list (there must be one).
func (n *nesting) top() *openList { return &n.open[len(n.open)-1] }

// item counts one more item, a list or a scalar, in the innermost list.
func (n *nesting) item(list bool) error {
	if len(n.open) == 0 {
		return nil
	}
	o := n.top()
	if o.items > 0 && o.lists != list || o.items == maxLiteralElements {
		return errNesting
	}
	o.lists = list
	o.items++
	return nil
}

// openList starts a list at the current depth.
func (n *nesting) openList(vec bool) error {
	d := len(n.open)
	if d >= tensor.MaxRank {
		return errNesting
	}
	if err := n.item(true); err != nil {
		return err
	}
	o := openList{vec: vec, first: d == 0 || n.top().first && n.top().items == 1}
	switch {
	case o.first:
		n.shape = append(n.shape, 0)
	case d >= n.rank:
		n.ragged = true
	}
	n.open = append(n.open, o)
	return nil
}

// scalar counts a scalar at the current depth.
func (n *nesting) scalar() error {
	if n.scalars == maxLiteralElements {
		return errNesting
	}
	n.scalars++
	if err := n.item(false); err != nil {
		return err
	}
	switch d := len(n.open); {
	case n.rank < 0:
		n.rank = d
	case d != n.rank:
		n.ragged = true
	}
	return nil
}

// closeList ends the innermost list.
func (n *nesting) closeList() {
	d := len(n.open) - 1
	o := n.open[d]
	switch {
	case o.first:
		n.shape[d] = o.items
		if o.items == 0 && n.rank < 0 {
			n.rank = d + 1 // an empty list ends the first path
		}
	case d < len(n.shape) && o.items != n.shape[d]:
		n.ragged = true
	}
	n.open = n.open[:d]
}
