package bank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Number is one number of the bank as the generator makes it.
type Number struct {
	ID          int64 // 98XXXXXXXXXX
	Operator    string
	Province    int
	County      int
	City        int // 0: outside any city
	Postal      string
	Lon, Lat    float32
	Tower       int // Irancell numbers' home cell (0: none)
	Category    int // 0: no business
	SubCategory int
	Gender      int // 0 unknown, 1 male, 2 female
	AgeBand     int // 0 unknown, 1–5
}

// Tower is a synthetic Irancell cell.
type Tower struct {
	ID     int     `json:"id"`
	County int     `json:"county_code"`
	Lon    float64 `json:"lon"`
	Lat    float64 `json:"lat"`
}

// Plan is a seeded, deterministic bank: the same seed and size always give the
// same cities, towers and numbers.
type Plan struct {
	Seed   int64
	Size   int
	Geo    *Geo
	Cities []City
	Towers []Tower

	people   []float64      // per county index
	counts   []int          // numbers per county index
	byCounty [][]int        // city indexes per county index
	rank     []int          // each county's place among its province's counties
	inside   [][][2]float64 // per county index: points drawn inside it, for rural numbers
	towers   towerGrid
}

// Prefixes of the generated numbers by operator (the operator_prefixes table
// routes them).
var prefixes = map[string][]int{
	"mci":      {910, 911, 912, 913, 914, 915, 916, 917, 918, 919, 990, 991},
	"irancell": {901, 902, 903, 905, 930, 933, 935, 936, 937, 938, 939},
	"rightel":  {920, 921, 922},
}

// Share of the shares the generator draws (by 1,000).
const (
	urbanShare    = 0.8
	businessShare = 0.3
	genderKnown   = 0.85
	ageKnown      = 0.7
	peoplePerCell = 4000 // one Irancell cell per this many people
)

var ageWeights = []float64{0.15, 0.30, 0.25, 0.17, 0.13}

// NewPlan places the cities and towers and spreads size numbers over the counties
// by population.
func NewPlan(seed int64, size int) (*Plan, error) {
	g, err := LoadGeo()
	if err != nil {
		return nil, err
	}
	if size <= 0 || size > 50_000_000 {
		return nil, fmt.Errorf("bank size %d out of range", size)
	}
	p := &Plan{Seed: seed, Size: size, Geo: g}
	p.spreadPeople()
	p.rank = make([]int, len(g.Counties))
	p.inside = make([][][2]float64, len(g.Counties))
	for _, prov := range g.Provinces {
		for k, i := range p.countyIndexes(prov.Code) {
			p.rank[i] = k
		}
	}
	p.placeCities()
	p.placeTowers()
	p.counts = apportion(p.people, size)
	return p, nil
}

func (p *Plan) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(p.Seed), stream))
}

// spreadPeople splits each province's people over its counties: half (two thirds
// in Tehran) to the capital's county, the rest unevenly over the others.
func (p *Plan) spreadPeople() {
	p.people = make([]float64, len(p.Geo.Counties))
	r := p.rng(1)
	for _, prov := range p.Geo.Provinces {
		idx := p.countyIndexes(prov.Code)
		capShare := 0.5
		if prov.Code == 28 {
			capShare = 0.66
		}
		capital := -1
		for _, i := range idx {
			if normName(p.Geo.Counties[i].NameFa) == normName(capitals[prov.Code]) {
				capital = i
			}
		}
		if capital < 0 || len(idx) == 1 {
			capShare = 0
		}
		w := make([]float64, len(idx))
		var sum float64
		for k, i := range idx {
			if i != capital {
				w[k] = 0.5 + r.Float64()
				sum += w[k]
			}
		}
		total := float64(provincePeople[prov.Code]) * 1000
		for k, i := range idx {
			if i == capital {
				p.people[i] = total * capShare
			} else {
				p.people[i] = total * (1 - capShare) * w[k] / sum
			}
		}
	}
}

func (p *Plan) countyIndexes(province int) []int {
	var out []int
	for i := range p.Geo.Counties {
		if p.Geo.Counties[i].Province == province {
			out = append(out, i)
		}
	}
	return out
}

// placeCities puts every city in a county of its province: the county of the same
// name at its centre, else a county picked by the seed at a point inside it.
func (p *Plan) placeCities() {
	r := p.rng(2)
	p.byCounty = make([][]int, len(p.Geo.Counties))
	for _, c := range p.Geo.cities {
		idx := p.countyIndexes(c.Province)
		if len(idx) == 0 {
			continue
		}
		at := -1
		for _, i := range idx {
			if normName(p.Geo.Counties[i].NameFa) == normName(c.NameFa) {
				at = i
			}
		}
		co := &p.Geo.Counties[idx[r.IntN(len(idx))]]
		if at >= 0 {
			co = &p.Geo.Counties[at]
		}
		c.County = co.Code
		c.Lon, c.Lat = co.Lon, co.Lat
		if at < 0 || !co.Contains(co.Lon, co.Lat) {
			c.Lon, c.Lat = randomIn(r, co)
		}
		k := co.Code - 1
		if at >= 0 { // the county's namesake leads its list: it is the main city
			p.byCounty[k] = append([]int{len(p.Cities)}, p.byCounty[k]...)
		} else {
			p.byCounty[k] = append(p.byCounty[k], len(p.Cities))
		}
		p.Cities = append(p.Cities, c)
	}
}

// randomIn draws a uniform point inside a county.
func randomIn(r *rand.Rand, c *County) (float64, float64) {
	b := c.bound
	for range 2000 {
		lon := b.minLon + r.Float64()*(b.maxLon-b.minLon)
		lat := b.minLat + r.Float64()*(b.maxLat-b.minLat)
		if c.Contains(lon, lat) {
			return lon, lat
		}
	}
	return c.Lon, c.Lat
}

// cityWeight and citySigma: the main city draws most of a county's townspeople,
// spread wider (degrees).
func cityWeight(k int) float64 {
	if k == 0 {
		return 8
	}
	return 1
}

func citySigma(k int) float64 {
	if k == 0 {
		return 0.03
	}
	return 0.012
}

// pickCity draws one of a county's cities by weight (index into its list).
func pickCity(r *rand.Rand, n int) int {
	total := 8 + float64(n-1)
	x := r.Float64() * total
	if x < 8 {
		return 0
	}
	return 1 + int(x-8)%max(n-1, 1)
}

// near draws a point around a city centre inside its county (uniform in the
// county after a few misses).
func near(r *rand.Rand, c *County, city City, sigma float64) (float64, float64) {
	for range 8 {
		lon := city.Lon + r.NormFloat64()*sigma
		lat := city.Lat + r.NormFloat64()*sigma
		if c.Contains(lon, lat) {
			return lon, lat
		}
	}
	return randomIn(r, c)
}

// insidePool is how many inside points a county keeps for rural numbers.
const insidePool = 256

// rural draws a point anywhere in county index i: one of its pool of inside points
// moved by up to about 200 m (kept when still inside).
func (p *Plan) rural(r *rand.Rand, i int) (float64, float64) {
	co := &p.Geo.Counties[i]
	if p.inside[i] == nil {
		pr := p.rng(200_000 + uint64(co.Code))
		pool := make([][2]float64, insidePool)
		for k := range pool {
			lon, lat := randomIn(pr, co)
			pool[k] = [2]float64{lon, lat}
		}
		p.inside[i] = pool
	}
	pt := p.inside[i][r.IntN(insidePool)]
	lon, lat := pt[0]+(r.Float64()-0.5)*0.004, pt[1]+(r.Float64()-0.5)*0.004
	if co.Contains(lon, lat) {
		return lon, lat
	}
	return pt[0], pt[1]
}

// placeTowers puts one Irancell cell per peoplePerCell people (at least three per
// county): most around the cities, the rest anywhere in the county.
func (p *Plan) placeTowers() {
	for i := range p.Geo.Counties {
		co := &p.Geo.Counties[i]
		r := p.rng(10_000 + uint64(co.Code))
		n := max(3, int(p.people[i]/peoplePerCell))
		cities := p.byCounty[i]
		for range n {
			var lon, lat float64
			if len(cities) > 0 && r.Float64() < urbanShare {
				k := pickCity(r, len(cities))
				lon, lat = near(r, co, p.Cities[cities[k]], citySigma(k))
			} else {
				lon, lat = randomIn(r, co)
			}
			p.Towers = append(p.Towers, Tower{ID: len(p.Towers) + 1, County: co.Code, Lon: lon, Lat: lat})
		}
	}
	p.towers = newTowerGrid(p.Towers)
}

// apportion splits n by weights (largest remainder), so the parts sum to n.
func apportion(w []float64, n int) []int {
	var sum float64
	for _, x := range w {
		sum += x
	}
	out := make([]int, len(w))
	rem := make([]int, len(w))
	left := n
	frac := make([]float64, len(w))
	for i, x := range w {
		exact := x / sum * float64(n)
		out[i] = int(exact)
		frac[i] = exact - float64(out[i])
		left -= out[i]
		rem[i] = i
	}
	sort.SliceStable(rem, func(a, b int) bool { return frac[rem[a]] > frac[rem[b]] })
	for k := 0; k < left; k++ {
		out[rem[k%len(rem)]]++
	}
	return out
}

// Numbers hands the bank to fn one county at a time, in county order and by place
// inside a county.
func (p *Plan) Numbers(fn func([]Number) error) error {
	ids := newIDMaker(p.Seed)
	cats := Categories()
	for i := range p.Geo.Counties {
		out := make([]Number, 0, p.counts[i])
		r := p.rng(100_000 + uint64(p.Geo.Counties[i].Code))
		for range p.counts[i] {
			out = append(out, p.number(r, i, ids, cats))
		}
		sort.Slice(out, func(a, b int) bool { return zkey(out[a]) < zkey(out[b]) })
		if err := fn(out); err != nil {
			return err
		}
	}
	return nil
}

// number draws one number of county index i.
func (p *Plan) number(r *rand.Rand, i int, ids *idMaker, cats []Category) Number {
	co := &p.Geo.Counties[i]
	n := Number{Province: co.Province, County: co.Code}
	var lon, lat float64
	if cities := p.byCounty[i]; len(cities) > 0 && r.Float64() < urbanShare {
		k := pickCity(r, len(cities))
		lon, lat = near(r, co, p.Cities[cities[k]], citySigma(k))
		n.City = p.Cities[cities[k]].ID
	} else {
		lon, lat = p.rural(r, i)
	}
	n.Lon, n.Lat = float32(lon), float32(lat)
	switch x := r.Float64(); {
	case x < 0.55:
		n.Operator = "mci"
	case x < 0.93:
		n.Operator = "irancell"
	default:
		n.Operator = "rightel"
	}
	n.ID = ids.next(n.Operator, r)
	if n.Operator == "irancell" {
		n.Tower = p.towers.nearest(float64(n.Lon), float64(n.Lat))
	}
	n.Postal = postal(co, p.rank[i], float64(n.Lat))
	p.traits(r, &n, cats)
	return n
}

// traits draws the business, gender and age band.
func (p *Plan) traits(r *rand.Rand, n *Number, cats []Category) {
	if r.Float64() < businessShare {
		c := cats[r.IntN(len(cats))]
		n.Category, n.SubCategory = c.ID, c.Subs[r.IntN(len(c.Subs))].ID
	}
	if r.Float64() < genderKnown {
		n.Gender = 2
		if r.Float64() < 0.52 {
			n.Gender = 1
		}
	}
	if r.Float64() < ageKnown {
		x := r.Float64()
		for k, w := range ageWeights {
			if x < w || k == len(ageWeights)-1 {
				n.AgeBand = k + 1
				break
			}
			x -= w
		}
	}
}

// postal is a number's postal-code prefix: two digits of province (10 + code),
// two of the county's place in its province and one of the band of latitude
// within the county (south to north).
func postal(co *County, rank int, lat float64) string {
	b := co.bound
	zone := 0
	if h := b.maxLat - b.minLat; h > 0 {
		zone = min(9, max(0, int((lat-b.minLat)/h*10)))
	}
	return fmt.Sprintf("%02d%02d%d", 10+co.Province, rank%100, zone)
}

// zkey orders points along a Z curve of the finest roll-up cells (1/1024°), so a
// cell's numbers sit together on disk.
func zkey(n Number) uint64 {
	x := uint64(math.Floor(float64(n.Lon)*(1<<maxLevel)) - 40<<maxLevel)
	y := uint64(math.Floor(float64(n.Lat)*(1<<maxLevel)) - 20<<maxLevel)
	var z uint64
	for b := range 16 {
		z |= (x>>b&1)<<(2*b) | (y>>b&1)<<(2*b+1)
	}
	return z
}

// idMaker gives every number a distinct 98-number: per prefix, the k-th number's
// seven digits are k times a multiplier coprime with 10^7, plus an offset.
type idMaker struct {
	offset int64
	used   map[int]int64
}

func newIDMaker(seed int64) *idMaker {
	return &idMaker{offset: ((seed % 10_000_000) + 10_000_000) % 10_000_000, used: map[int]int64{}}
}

func (m *idMaker) next(op string, r *rand.Rand) int64 {
	ps := prefixes[op]
	pre := ps[r.IntN(len(ps))]
	k := m.used[pre]
	m.used[pre] = k + 1
	return 98_000_000_0000 + int64(pre)*10_000_000 + (k*7_919_993+m.offset)%10_000_000
}

// towerGrid finds the nearest cell to a point through a grid of 0.02° squares.
type towerGrid struct {
	cells  map[[2]int][]int
	towers []Tower
}

const gridStep = 0.02

func gridCell(lon, lat float64) [2]int {
	return [2]int{int(math.Floor(lon / gridStep)), int(math.Floor(lat / gridStep))}
}

func newTowerGrid(ts []Tower) towerGrid {
	g := towerGrid{cells: map[[2]int][]int{}, towers: ts}
	for i, t := range ts {
		c := gridCell(t.Lon, t.Lat)
		g.cells[c] = append(g.cells[c], i)
	}
	return g
}

// nearest searches rings of cells outwards and stops one ring after the first hit.
func (g towerGrid) nearest(lon, lat float64) int {
	c := gridCell(lon, lat)
	best, bestD := -1, math.MaxFloat64
	for ring := 0; ring < 200; ring++ {
		for dx := -ring; dx <= ring; dx++ {
			for dy := -ring; dy <= ring; dy++ {
				if max(abs(dx), abs(dy)) != ring {
					continue
				}
				for _, i := range g.cells[[2]int{c[0] + dx, c[1] + dy}] {
					d := sq(g.towers[i].Lon-lon) + sq(g.towers[i].Lat-lat)
					if d < bestD {
						best, bestD = i, d
					}
				}
			}
		}
		if best >= 0 && float64(ring-1)*gridStep > math.Sqrt(bestD) {
			break
		}
	}
	if best < 0 {
		return 0
	}
	return g.towers[best].ID
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sq(x float64) float64 { return x * x }
