package bank

import "math"

// box is a longitude/latitude bounding box.
type box struct{ minLon, minLat, maxLon, maxLat float64 }

func emptyBox() box { return box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)} }

func (b box) has(lon, lat float64) bool {
	return lon >= b.minLon && lon <= b.maxLon && lat >= b.minLat && lat <= b.maxLat
}

func (b box) union(o box) box {
	return box{min(b.minLon, o.minLon), min(b.minLat, o.minLat), max(b.maxLon, o.maxLon), max(b.maxLat, o.maxLat)}
}

// ring is a closed ring of [lon, lat] points with its box.
type ring struct {
	pts   [][2]float64
	bound box
}

func ringOf(pts [][2]float64) ring {
	r := ring{pts: pts, bound: emptyBox()}
	for _, p := range pts {
		r.bound = r.bound.union(box{p[0], p[1], p[0], p[1]})
	}
	return r
}

// contains is the even-odd ray test.
func (r *ring) contains(lon, lat float64) bool {
	if !r.bound.has(lon, lat) {
		return false
	}
	in := false
	pts := r.pts
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		a, b := pts[i], pts[j]
		if (a[1] > lat) != (b[1] > lat) && lon < (b[0]-a[0])*(lat-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// polygon is an outer ring and its holes.
type polygon struct{ rings []ring }

func (p *polygon) contains(lon, lat float64) bool {
	if len(p.rings) == 0 || !p.rings[0].contains(lon, lat) {
		return false
	}
	for i := 1; i < len(p.rings); i++ {
		if p.rings[i].contains(lon, lat) {
			return false
		}
	}
	return true
}
