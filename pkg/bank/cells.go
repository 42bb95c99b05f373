package bank

import (
	"math"
)

// Where a cell lies against a map shape.
const (
	cellOut  = -1
	cellEdge = 0
	cellIn   = 1
)

// maxEdgeCells bounds the finest cells whose numbers a map count reads one by one;
// a shape with more edge than that (a polygon of half the country) is counted from
// the numbers through the GiST index instead.
const maxEdgeCells = 30_000

// region is a map shape as the cell cover sees it: where a box lies against it,
// and the part of the shape that matters inside the box (a polygon keeps only the
// sides crossing it).
type region interface {
	classify(b box) (int, region)
	bounds() box
}

// cover is a shape's cells: those wholly inside by level (their roll-up rows are
// summed) and the finest cells on its edge (their numbers are counted).
type cover struct {
	levels []int16
	cells  []int64
	edge   []int64
}

// coverOf walks the cells of minLevel over the shape's box and splits every cell
// on the edge into its four children down to maxLevel. ok is false when the edge
// holds more than maxEdgeCells cells.
func coverOf(r region) (cover, bool) {
	var c cover
	b := r.bounds()
	scale := float64(int64(1) << minLevel)
	for x := int64(math.Floor(b.minLon * scale)); float64(x) <= b.maxLon*scale; x++ {
		for y := int64(math.Floor(b.minLat * scale)); float64(y) <= b.maxLat*scale; y++ {
			if !c.visit(r, minLevel, x, y) {
				return c, false
			}
		}
	}
	return c, true
}

// cellBox is the box of cell (x, y) at a level.
func cellBox(level int, x, y int64) box {
	s := 1 / float64(int64(1)<<level)
	return box{float64(x) * s, float64(y) * s, float64(x+1) * s, float64(y+1) * s}
}

func cellKey(x, y int64) int64 { return x<<cellBits | y }

func (c *cover) visit(r region, level int, x, y int64) bool {
	state, sub := r.classify(cellBox(level, x, y))
	switch {
	case state == cellIn:
		c.levels, c.cells = append(c.levels, int16(level)), append(c.cells, cellKey(x, y))
	case state == cellOut:
	case level == maxLevel:
		c.edge = append(c.edge, cellKey(x, y))
		return len(c.edge) <= maxEdgeCells
	default:
		for i := range int64(4) {
			if !c.visit(sub, level+1, 2*x+i%2, 2*y+i/2) {
				return false
			}
		}
	}
	return true
}

// earthRadius is PostGIS's sphere (metres).
const earthRadius = 6371008.7714

// haversine is the distance in metres on PostGIS's sphere.
func haversine(lon1, lat1, lon2, lat2 float64) float64 {
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadius * math.Asin(math.Sqrt(a))
}

// cellSlack keeps a cell's decision clear of rounding: a cell is inside only if
// all of it is nearer than the radius by this share, outside only if farther.
const cellSlack = 1e-7

// circleRegion is a circle on the sphere.
type circleRegion struct{ c Circle }

func (r circleRegion) bounds() box {
	dLat := r.c.Radius / (earthRadius * math.Pi / 180) * 1.01
	dLon := dLat / math.Max(math.Cos((math.Abs(r.c.Lat)+dLat)*math.Pi/180), 0.01)
	return box{r.c.Lon - dLon, r.c.Lat - dLat, r.c.Lon + dLon, r.c.Lat + dLat}
}

// classify: on a sphere the farthest point of a small lon/lat box from a point is
// one of its corners, and no point of it is nearer than the distance to its centre
// less the centre's farthest corner.
func (r circleRegion) classify(b box) (int, region) {
	corners := [4][2]float64{{b.minLon, b.minLat}, {b.maxLon, b.minLat}, {b.minLon, b.maxLat}, {b.maxLon, b.maxLat}}
	far, reach := 0.0, 0.0
	mLon, mLat := (b.minLon+b.maxLon)/2, (b.minLat+b.maxLat)/2
	for _, p := range corners {
		far = max(far, haversine(r.c.Lon, r.c.Lat, p[0], p[1]))
		reach = max(reach, haversine(mLon, mLat, p[0], p[1]))
	}
	switch {
	case far <= r.c.Radius*(1-cellSlack):
		return cellIn, r
	case haversine(r.c.Lon, r.c.Lat, mLon, mLat)-reach > r.c.Radius*(1+cellSlack):
		return cellOut, r
	}
	return cellEdge, r
}

// polygonRegion is a ring in lon/lat (even-odd, as PostGIS's planar test) and the
// sides that matter in the current box.
type polygonRegion struct {
	pts   [][2]float64
	sides [][2][2]float64
	bound box
}

func newPolygonRegion(pts [][2]float64) polygonRegion {
	r := polygonRegion{pts: pts, bound: ringOf(pts).bound}
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		r.sides = append(r.sides, [2][2]float64{pts[j], pts[i]})
	}
	return r
}

func (r polygonRegion) bounds() box { return r.bound }

// classify: a box no side touches is wholly inside or wholly outside, as its centre.
func (r polygonRegion) classify(b box) (int, region) {
	eps := (b.maxLon - b.minLon) * cellSlack
	grown := box{b.minLon - eps, b.minLat - eps, b.maxLon + eps, b.maxLat + eps}
	var crossing [][2][2]float64
	for _, s := range r.sides {
		if segmentMeetsBox(s[0], s[1], grown) {
			crossing = append(crossing, s)
		}
	}
	if len(crossing) > 0 {
		return cellEdge, polygonRegion{pts: r.pts, sides: crossing, bound: r.bound}
	}
	ring := ring{pts: r.pts, bound: r.bound}
	if ring.contains((b.minLon+b.maxLon)/2, (b.minLat+b.maxLat)/2) {
		return cellIn, r
	}
	return cellOut, r
}

// segmentMeetsBox clips the segment a–b to the box (Liang–Barsky).
func segmentMeetsBox(a, b [2]float64, bx box) bool {
	t0, t1 := 0.0, 1.0
	d := [2]float64{b[0] - a[0], b[1] - a[1]}
	edges := [4][2]float64{{-d[0], a[0] - bx.minLon}, {d[0], bx.maxLon - a[0]}, {-d[1], a[1] - bx.minLat}, {d[1], bx.maxLat - a[1]}}
	for _, e := range edges {
		p, q := e[0], e[1]
		switch {
		case p == 0:
			if q < 0 {
				return false
			}
		case p < 0:
			t0 = max(t0, q/p)
		default:
			t1 = min(t1, q/p)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}
