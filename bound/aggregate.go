package bound

// aggregate is the first certificate, and the column generation's first
// stability centre: the dual of the aggregated LP, which covers the
// summed demand of each resource (and, per anti-affinity group, one node
// per pod) rather than the classes. Its dual u ≥ 0 per dimension, v ≥ 0
// per group, with u·room_j + Σ_{groups j admits} v_g ≤ price_j for every
// column j, gives the class duals y_k = u·req_k + v_g(k): any pattern's
// value at y is at most u·room + Σ v_g over the groups it holds, so y is
// feasible for the configuration LP's dual and its bound is at least the
// aggregated LP's. The feasibility is checked in closed form, over every
// column, as ρ; existing nodes get w_n = u·free_n + Σ v_g over the groups
// they admit; the limits' z are 0. It returns the dual point (y, z, w),
// and false when the small LP fails.
func (g *colgen) aggregate() ([]float64, cert, bool) {
	m := g.m
	dims, k := len(m.names), len(m.count)
	scale := make([]float64, dims)
	for _, c := range m.cols {
		for d, a := range c.alloc {
			scale[d] = max(scale[d], float64(a))
		}
	}
	obj := make([]float64, dims+m.groups)
	for j, n := range m.count {
		for d, r := range m.req[j] {
			if scale[d] > 0 {
				obj[d] += n * float64(r) / scale[d]
			}
		}
		if gr := m.group[j]; gr >= 0 {
			obj[dims+gr] += n
		}
	}
	tab := newTableau(obj)
	for _, c := range m.cols {
		coef, rhs := g.aggregateRow(c, scale), 1.0
		if c.price > 0 {
			for i := range coef {
				coef[i] /= c.price
			}
		} else {
			rhs = 0
		}
		tab.addRow(coef, rhs)
	}
	if tab.solve(g.o.maxPivots()) != nil {
		return nil, cert{}, false
	}
	uv := tab.values()
	for d := range dims {
		if scale[d] > 0 {
			uv[d] /= scale[d]
		}
	}
	v := make([]float64, g.nv())
	for j := range k {
		for d, r := range m.req[j] {
			v[j] += uv[d] * float64(r)
		}
		if gr := m.group[j]; gr >= 0 {
			v[j] += uv[dims+gr]
		}
	}
	return v, g.aggregateCert(v, uv), true
}

// aggregateRow is column c's row of the aggregated dual: its room in each
// dimension (scaled) and 1 for each group it admits.
func (g *colgen) aggregateRow(c column, scale []float64) []float64 {
	dims := len(g.m.names)
	coef := make([]float64, dims+g.m.groups)
	for d, a := range c.alloc {
		if scale[d] > 0 {
			coef[d] = float64(a) / scale[d]
		}
	}
	for _, k := range c.classes {
		if gr := g.m.group[k]; gr >= 0 {
			coef[dims+gr] = 1
		}
	}
	return coef
}

// aggregateCert certifies v (y from uv, z = 0) in closed form: ρ is the
// largest (u·room + Σ admitted v_g) / price over the columns, w_n the same
// sum for node n.
func (g *colgen) aggregateCert(v, uv []float64) cert {
	m := g.m
	worth := func(r *room) float64 {
		dims := len(m.names)
		s := 0.0
		for d, a := range r.alloc {
			s += uv[d] * float64(max(a, 0))
		}
		seen := make([]bool, m.groups)
		for _, k := range r.classes {
			if gr := m.group[k]; gr >= 0 && !seen[gr] {
				seen[gr] = true
				s += uv[dims+gr]
			}
		}
		return s * (1 + slack)
	}
	rho := 1.0
	for i := range m.cols {
		rho = max(rho, ratio(worth(&m.cols[i].room), m.cols[i].price))
	}
	w := make([]float64, len(m.nodes))
	for n := range m.nodes {
		w[n] = worth(&m.nodes[n])
	}
	return cert{v: v, w: w, rho: rho * (1 + slack)}
}

// value is a certificate's bound: (nᵀy − Lᵀz − Σw)/ρ, shaved.
func (g *colgen) value(c cert) float64 {
	k := len(g.m.count)
	var gain, charge, free float64
	for j, n := range g.m.count {
		gain += n * c.v[j]
	}
	for _, pv := range g.m.pools {
		for i, r := range pv.rhs {
			charge += r * c.v[k+pv.first+i]
		}
	}
	for _, w := range c.w {
		free += w
	}
	return (gain - charge - free - slack*(gain+charge+free)) / c.rho
}
