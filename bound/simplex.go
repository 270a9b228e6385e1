package bound

import "errors"

// errSimplex is a failed restricted solve; the caller keeps its best
// certified bound.
var errSimplex = errors.New("bound: simplex failed")

// Simplex tolerances: a reduced cost or a row entry below pivotTol counts
// as zero, a right-hand side above -feasTol as feasible.
const (
	pivotTol = 1e-9
	feasTol  = 1e-9
)

// tableau is a dense simplex tableau of max gᵀv s.t. M v ≤ b, v ≥ 0 with
// b ≥ 0 when a row is added: the restricted dual, one row per cut. Row i
// reads Σ_j rows[i][j] v_j = rhs[i] over the structural variables and then
// one slack per row; basis[i] is the variable basic in row i. obj holds
// the reduced costs (g_j less the basis' price): optimal when none is
// positive. Rows are added one at a time (addRow), keeping the basis: the
// optimum then stays dual feasible and the dual simplex restores primal
// feasibility in a few pivots, so that each round of cuts costs a few
// pivots of O(rows × columns) rather than a solve from scratch.
type tableau struct {
	nv    int
	rows  [][]float64
	rhs   []float64
	basis []int
	obj   []float64
}

func newTableau(g []float64) *tableau {
	return &tableau{nv: len(g), obj: append([]float64(nil), g...)}
}

// addRow adds the cut coef·v ≤ b, expressed in the current basis.
func (t *tableau) addRow(coef []float64, b float64) {
	for i := range t.rows {
		t.rows[i] = append(t.rows[i], 0)
	}
	t.obj = append(t.obj, 0)
	row := make([]float64, len(t.obj))
	copy(row, coef)
	row[len(row)-1] = 1
	for i, bv := range t.basis {
		if f := row[bv]; f != 0 {
			axpy(row, -f, t.rows[i])
			b -= f * t.rhs[i]
		}
	}
	t.rows = append(t.rows, row)
	t.rhs = append(t.rhs, b)
	t.basis = append(t.basis, len(row)-1)
}

// axpy sets dst += a·x.
func axpy(dst []float64, a float64, x []float64) {
	for j, v := range x {
		if v != 0 {
			dst[j] += a * v
		}
	}
}

// pivot makes column e basic in row r.
func (t *tableau) pivot(r, e int) {
	t.rhs[r] *= 1 / t.rows[r][e]
	for i, row := range t.rows {
		if f := row[e]; i != r && f != 0 {
			t.rhs[i] -= f * t.rhs[r]
		}
	}
	pivotRows(t.rows, t.obj, r, e)
	t.basis[r] = e
}

// pivotRows scales row r to 1 in column e and clears column e from the
// other rows and from obj (the reduced costs).
func pivotRows(rows [][]float64, obj []float64, r, e int) {
	pr := rows[r]
	inv := 1 / pr[e]
	for j := range pr {
		pr[j] *= inv
	}
	pr[e] = 1
	for i, row := range rows {
		if f := row[e]; i != r && f != 0 {
			axpy(row, -f, pr)
			row[e] = 0
		}
	}
	if f := obj[e]; f != 0 {
		axpy(obj, -f, pr)
		obj[e] = 0
	}
}

// solve restores optimality: the dual simplex while a row is infeasible,
// then the primal simplex while a reduced cost is positive, at most
// maxPivots pivots in all.
func (t *tableau) solve(maxPivots int) error {
	for n := 0; ; n++ {
		if n == maxPivots {
			return errSimplex
		}
		if r := t.infeasibleRow(); r >= 0 {
			e := t.dualEntering(r)
			if e < 0 {
				return errSimplex
			}
			t.pivot(r, e)
			continue
		}
		e := t.entering()
		if e < 0 {
			return nil
		}
		r := t.leaving(e)
		if r < 0 {
			return errSimplex // unbounded: the cuts do not bound the duals
		}
		t.pivot(r, e)
	}
}

// infeasibleRow is the row with the most negative right-hand side, -1 if
// none is below -feasTol.
func (t *tableau) infeasibleRow() int {
	best, at := -feasTol, -1
	for i, v := range t.rhs {
		if v < best {
			best, at = v, i
		}
	}
	return at
}

// dualEntering is the dual simplex ratio test on row r: the column with
// a negative entry whose reduced cost over it is least, ties to the lower
// index.
func (t *tableau) dualEntering(r int) int {
	at, best := -1, 0.0
	for j, a := range t.rows[r] {
		if a >= -pivotTol {
			continue
		}
		ratio := min(t.obj[j], 0) / a
		if at < 0 || ratio < best {
			at, best = j, ratio
		}
	}
	return at
}

// entering is the column of largest positive reduced cost (Dantzig's
// rule), -1 at the optimum.
func (t *tableau) entering() int {
	at, best := -1, pivotTol
	for j, v := range t.obj {
		if v > best {
			at, best = j, v
		}
	}
	return at
}

// leaving is the primal ratio test on column e, ties to the row whose
// basic variable has the lower index; -1 when the column is unbounded.
func (t *tableau) leaving(e int) int {
	at, best := -1, 0.0
	for i, row := range t.rows {
		a := row[e]
		if a <= pivotTol {
			continue
		}
		ratio := max(t.rhs[i], 0) / a
		if at < 0 || ratio < best || ratio == best && t.basis[i] < t.basis[at] {
			at, best = i, ratio
		}
	}
	return at
}

// values are the structural variables' values, negative ones clipped.
func (t *tableau) values() []float64 {
	v := make([]float64, t.nv)
	for i, b := range t.basis {
		if b < t.nv {
			v[b] = max(t.rhs[i], 0)
		}
	}
	return v
}
