package bank

import (
	"math"
	"math/rand/v2"
	"testing"
)

// cellOf is a point's cell at a level, as bank_numbers.cell keys it at maxLevel.
func cellOf(level int, lon, lat float32) int64 {
	s := float64(int64(1) << level)
	return cellKey(int64(math.Floor(float64(lon)*s)), int64(math.Floor(float64(lat)*s)))
}

// TestCoverIsSound draws points around a circle and a concave polygon: a point in a
// cell the cover calls inside is inside the shape, a point in no cell of the cover
// is outside, and the edge is a thin share of the cells.
func TestCoverIsSound(t *testing.T) {
	poly := [][2]float64{{51.30, 35.60}, {51.50, 35.62}, {51.42, 35.70}, {51.52, 35.80}, {51.32, 35.78}}
	shapes := []struct {
		name string
		r    region
		in   func(lon, lat float64) bool
	}{
		{"5 km circle", circleRegion{Circle{Lat: 35.6892, Lon: 51.389, Radius: 5000}},
			func(lon, lat float64) bool { return haversine(51.389, 35.6892, lon, lat) <= 5000 }},
		{"30 km circle", circleRegion{Circle{Lat: 38.08, Lon: 46.29, Radius: 30000}},
			func(lon, lat float64) bool { return haversine(46.29, 38.08, lon, lat) <= 30000 }},
		{"concave polygon", newPolygonRegion(poly), func(lon, lat float64) bool { r := ringOf(poly); return r.contains(lon, lat) }},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range shapes {
		c, ok := coverOf(sh.r)
		if !ok || len(c.cells) == 0 || len(c.edge) == 0 {
			t.Fatalf("%s: cover ok %v, %d inner cells, %d edge cells", sh.name, ok, len(c.cells), len(c.edge))
		}
		inner := map[[2]int64]bool{}
		for i, k := range c.cells {
			inner[[2]int64{int64(c.levels[i]), k}] = true
		}
		edge := map[int64]bool{}
		for _, k := range c.edge {
			edge[k] = true
		}
		b := sh.r.bounds()
		var inCells, onEdge int
		for range 200_000 {
			lon := float32(b.minLon + rng.Float64()*(b.maxLon-b.minLon))
			lat := float32(b.minLat + rng.Float64()*(b.maxLat-b.minLat))
			want := sh.in(float64(lon), float64(lat))
			covered := false
			for l := minLevel; l <= maxLevel; l++ {
				covered = covered || inner[[2]int64{int64(l), cellOf(l, lon, lat)}]
			}
			switch {
			case covered && !want:
				t.Fatalf("%s: %v,%v is in an inner cell but outside the shape", sh.name, lon, lat)
			case edge[cellOf(maxLevel, lon, lat)]:
				onEdge++
			case covered:
				inCells++
			case want:
				t.Fatalf("%s: %v,%v is inside the shape but in no cell of the cover", sh.name, lon, lat)
			}
		}
		if onEdge*5 > inCells {
			t.Fatalf("%s: %d points on the edge cells against %d in inner cells", sh.name, onEdge, inCells)
		}
	}
}
