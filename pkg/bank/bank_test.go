package bank_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/operator"
)

const (
	testSeed = 7
	testSize = 20_000
)

// fixture is a seeded bank and the generator's own output for brute-force counts.
type fixture struct {
	svc  *bank.Service
	plan *bank.Plan
	all  []bank.Number
	db   testenv.Database
}

// shared is the one seeded bank of the package's tests (TestMain).
var shared fixture

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx := context.Background()
	d, drop, err := testenv.NewDatabase(ctx, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer drop()
	r, release, err := testenv.NewRedis(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer release()
	if shared, err = seeded(ctx, d, r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

func seeded(ctx context.Context, d testenv.Database, r testenv.Redis) (fixture, error) {
	if wrote, err := bank.Seed(ctx, d.Pool, testSeed, testSize); err != nil || !wrote {
		return fixture{}, fmt.Errorf("seed: %v %w", wrote, err)
	}
	if wrote, err := bank.Seed(ctx, d.Pool, testSeed, testSize); err != nil || wrote {
		return fixture{}, fmt.Errorf("a second seed of the same bank must change nothing: %v %w", wrote, err)
	}
	p, err := bank.NewPlan(testSeed, testSize)
	if err != nil {
		return fixture{}, err
	}
	f := fixture{svc: bank.New(d.Pool, r.Client), plan: p, db: d}
	err = p.Numbers(func(ns []bank.Number) error { f.all = append(f.all, ns...); return nil })
	return f, err
}

func setup(t *testing.T) fixture {
	t.Helper()
	return shared
}

// brute counts the generator's numbers that pass keep, by operator.
func (f fixture) brute(keep func(n bank.Number) bool) (int64, map[string]int64) {
	var total int64
	by := map[string]int64{}
	for _, n := range f.all {
		if keep(n) {
			total++
			by[n.Operator]++
		}
	}
	return total, by
}

// haversine is the distance in metres on PostGIS's sphere.
func haversine(lon1, lat1, lon2, lat2 float64) float64 {
	const r = 6371008.7714
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(a))
}

// inPolygon is the even-odd test over a closed ring.
func inPolygon(pts [][2]float64, lon, lat float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		a, b := pts[i], pts[j]
		if (a[1] > lat) != (b[1] > lat) && lon < (b[0]-a[0])*(lat-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

func TestCountsAgreeWithBruteForce(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	city := f.plan.Cities[0]
	for _, c := range f.plan.Cities { // the busiest city of Tehran province
		if c.NameFa == "تهران" {
			city = c
		}
	}
	cx, cy := city.Lon, city.Lat
	square := [][2]float64{{cx - 0.05, cy - 0.04}, {cx + 0.06, cy - 0.05}, {cx + 0.05, cy + 0.05}, {cx - 0.04, cy + 0.06}}
	concave := [][2]float64{{cx - 0.1, cy - 0.08}, {cx + 0.1, cy - 0.06}, {cx, cy}, {cx + 0.12, cy + 0.1}, {cx - 0.09, cy + 0.08}}
	towers := []int{}
	for _, n := range f.all {
		if n.Tower > 0 && n.Province == 28 && len(towers) < 20 && !contains(towers, n.Tower) {
			towers = append(towers, n.Tower)
		}
	}
	cases := []struct {
		name string
		typ  string
		t    bank.Target
		keep func(n bank.Number) bool
	}{
		{"province", bank.TypeCityProvince, bank.Target{Provinces: []int{28}}, func(n bank.Number) bool { return n.Province == 28 }},
		{"two provinces, women", bank.TypeCityProvince, bank.Target{Provinces: []int{11, 6}, Genders: []int{2}},
			func(n bank.Number) bool { return (n.Province == 11 || n.Province == 6) && n.Gender == 2 }},
		{"county", bank.TypeCityProvince, bank.Target{Counties: []int{city.County}}, func(n bank.Number) bool { return n.County == city.County }},
		{"city, irancell, age 2-3", bank.TypeCityProvince, bank.Target{Cities: []int{city.ID}, Operators: []string{"irancell"}, AgeBands: []int{2, 3}},
			func(n bank.Number) bool {
				return n.City == city.ID && n.Operator == "irancell" && (n.AgeBand == 2 || n.AgeBand == 3)
			}},
		{"category", bank.TypeBusiness, bank.Target{Categories: []int{3}}, func(n bank.Number) bool { return n.Category == 3 }},
		{"sub-categories in a province", bank.TypeBusiness, bank.Target{SubCategories: []int{101, 305}, Provinces: []int{28}},
			func(n bank.Number) bool { return (n.SubCategory == 101 || n.SubCategory == 305) && n.Province == 28 }},
		{"postal prefixes", bank.TypePostalCode, bank.Target{PostalCodes: []string{"39", "۱۶۰"}},
			func(n bank.Number) bool {
				return strings.HasPrefix(n.Postal, "39") || strings.HasPrefix(n.Postal, "160")
			}},
		{"5 km circle", bank.TypeMap, bank.Target{Circle: &bank.Circle{Lat: cy, Lon: cx, Radius: 5000}},
			func(n bank.Number) bool { return haversine(cx, cy, float64(n.Lon), float64(n.Lat)) <= 5000 }},
		{"polygon", bank.TypeMap, bank.Target{Polygon: square},
			func(n bank.Number) bool { return inPolygon(square, float64(n.Lon), float64(n.Lat)) }},
		{"5 km circle, MCI women of 25–34 (cell roll-up narrowed)", bank.TypeMap,
			bank.Target{Circle: &bank.Circle{Lat: cy, Lon: cx, Radius: 5000}, Operators: []string{"mci"}, Genders: []int{2}, AgeBands: []int{2}},
			func(n bank.Number) bool {
				return n.Operator == "mci" && n.Gender == 2 && n.AgeBand == 2 && haversine(cx, cy, float64(n.Lon), float64(n.Lat)) <= 5000
			}},
		{"30 km circle (cells of every level)", bank.TypeMap, bank.Target{Circle: &bank.Circle{Lat: cy, Lon: cx, Radius: 30000}},
			func(n bank.Number) bool { return haversine(cx, cy, float64(n.Lon), float64(n.Lat)) <= 30000 }},
		{"concave polygon", bank.TypeMap, bank.Target{Polygon: concave},
			func(n bank.Number) bool { return inPolygon(concave, float64(n.Lon), float64(n.Lat)) }},
		{"business category in provinces (business roll-up)", bank.TypeBusiness, bank.Target{Categories: []int{5}, Provinces: []int{28, 6}, Genders: []int{1}},
			func(n bank.Number) bool {
				return n.Category == 5 && (n.Province == 28 || n.Province == 6) && n.Gender == 1
			}},
		{"20 towers", bank.TypeTowerIrancell, bank.Target{Towers: towers}, func(n bank.Number) bool { return contains(towers, n.Tower) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, byOp := f.brute(c.keep)
			if want == 0 {
				t.Fatal("the case matches nothing: it would prove nothing")
			}
			for _, pass := range []string{"read", "cached"} {
				got, err := f.svc.Count(ctx, 0, bank.CountRequest{Type: c.typ, Target: c.t})
				if err != nil {
					t.Fatal(err)
				}
				if got.Total != want || got.Cached != (pass == "cached") {
					t.Fatalf("%s: total %d (cached %v), brute force %d", pass, got.Total, got.Cached, want)
				}
				for op, n := range byOp {
					if got.ByOperator[op] != n {
						t.Fatalf("%s: %s %d, brute force %d", pass, op, got.ByOperator[op], n)
					}
				}
			}
		})
	}
}

// TestRollupsAgreeWithTheNumbers: every level of the cell roll-up holds the whole
// bank, and the category and sub-category list counts equal a brute-force count.
func TestRollupsAgreeWithTheNumbers(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	var levels, wrong int
	err := f.db.Pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE s <> $1) FROM (
		SELECT level, sum(x) AS s FROM bank_cell_counts, unnest(n) AS x GROUP BY 1) l`, len(f.all)).Scan(&levels, &wrong)
	if err != nil || levels != 7 || wrong != 0 {
		t.Fatalf("%d cell levels, %d not holding the %d numbers of the bank (%v)", levels, wrong, len(f.all), err)
	}
	cats, err := f.svc.JobCategories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cats {
		if want, _ := f.brute(func(n bank.Number) bool { return n.Category == c.ID }); c.Count != want || want == 0 {
			t.Fatalf("category %d: %d, brute force %d", c.ID, c.Count, want)
		}
		subs, err := f.svc.JobSubCategories(ctx, c.ID)
		if err != nil || len(subs) == 0 {
			t.Fatalf("sub-categories of %d: %v", c.ID, err)
		}
		for _, sc := range subs {
			if want, _ := f.brute(func(n bank.Number) bool { return n.SubCategory == sc.ID }); sc.Count != want {
				t.Fatalf("sub-category %d: %d, brute force %d", sc.ID, sc.Count, want)
			}
		}
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestCountPriceAndMinimum(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	tbl, err := operator.Load(ctx, f.db.Pool, 0)
	if err != nil {
		t.Fatal(err)
	}
	total, byOp := f.brute(func(n bank.Number) bool { return n.Province == 28 })
	var want int64
	for op, n := range byOp {
		want += n * tbl.Price(op, 2)
	}
	long := strings.Repeat("سلام ", 20) // 100 characters: two parts
	got, err := f.svc.Count(ctx, 0, bank.CountRequest{Type: bank.TypeCityProvince, Target: bank.Target{Provinces: []int{28}}, Text: long})
	if err != nil {
		t.Fatal(err)
	}
	if got.Parts != 2 || got.Price != want || got.Recipients != total || got.Enough != (total >= bank.MinRecipients) {
		t.Fatalf("counts %+v, want price %d of %d", got, want, total)
	}
	small, err := f.svc.Count(ctx, 0, bank.CountRequest{Type: bank.TypeCityProvince, Target: bank.Target{Provinces: []int{11}}})
	if err != nil || small.Enough || small.Total >= bank.MinRecipients {
		t.Fatalf("Ilam's %d numbers must not be enough: %+v %v", small.Total, small, err)
	}
}

func TestTargetErrors(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	cases := []struct {
		typ   string
		t     bank.Target
		field string
	}{
		{bank.TypeCityProvince, bank.Target{}, "target.provinces"},
		{bank.TypeBusiness, bank.Target{Provinces: []int{1}}, "target.categories"},
		{bank.TypePostalCode, bank.Target{PostalCodes: []string{"12a"}}, "target.postal_codes"},
		{bank.TypeMap, bank.Target{}, "target.polygon"},
		{bank.TypeMap, bank.Target{Circle: &bank.Circle{Lat: 35.7, Lon: 51.4, Radius: 10}}, "target.circle"},
		{bank.TypeMap, bank.Target{Circle: &bank.Circle{Lat: 48.8, Lon: 2.3, Radius: 1000}}, "target.circle"},
		// A bow tie: its sides cross.
		{bank.TypeMap, bank.Target{Polygon: [][2]float64{{51, 35}, {52, 36}, {52, 35}, {51, 36}}}, "target.polygon"},
		{bank.TypeTowerIrancell, bank.Target{}, "target.towers"},
		{bank.TypeCityProvince, bank.Target{Provinces: []int{1}, Operators: []string{"x"}}, "target.operators"},
	}
	for _, c := range cases {
		_, err := f.svc.Count(ctx, 0, bank.CountRequest{Type: c.typ, Target: c.t})
		fe, ok := apperr.As(err)
		if !ok || fe.Kind != apperr.Invalid || len(fe.Fields[c.field]) == 0 {
			t.Errorf("%s %+v: want a Persian error on %s, got %v", c.typ, c.t, c.field, err)
		}
	}
}

func TestRandomDrawIsDistinctAndStable(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	tg := bank.Target{Provinces: []int{28}, Count: 1500, Seed: 99}
	if err := tg.Check(bank.TypeCityProvince); err != nil {
		t.Fatal(err)
	}
	draw := func(tg bank.Target) map[int64]bool {
		sql, args := tg.SourceSQL()
		seen := map[int64]bool{}
		var after int64
		for { // pages of 400, as the send engine pages by id
			rows, err := f.db.Pool.Query(ctx, sql, append([]any{after, 400}, args...)...)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rows.Next() {
				var id int64
				var mobile string
				var text *string
				var cells []string
				if err := rows.Scan(&id, &mobile, &text, &cells); err != nil {
					t.Fatal(err)
				}
				if seen[id] {
					t.Fatalf("number %d drawn twice", id)
				}
				seen[id], after, n = true, id, n+1
			}
			rows.Close()
			if n < 400 {
				return seen
			}
		}
	}
	a, b := draw(tg), draw(tg)
	if len(a) != 1500 || len(b) != 1500 {
		t.Fatalf("drew %d and %d, want 1500", len(a), len(b))
	}
	for id := range a {
		if !b[id] {
			t.Fatal("the same seed drew other numbers")
		}
		if id/10_000_000 < 98900 {
			t.Fatalf("not a mobile: %d", id)
		}
	}
	tg.Seed = 100
	other := draw(tg)
	same := 0
	for id := range other {
		if a[id] {
			same++
		}
	}
	if same == len(a) {
		t.Fatal("another seed drew the same numbers")
	}
}

func TestMask(t *testing.T) {
	if got := bank.Mask("989121234567"); got != "0912*****67" {
		t.Fatalf("Mask = %q", got)
	}
	var got string
	d := testenv.Postgres(t)
	if err := d.Pool.QueryRow(context.Background(), `SELECT bank_masked('city_province', '989121234567') || ' ' ||
		bank_masked('quick', '989121234567')`).Scan(&got); err != nil || got != "0912*****67 989121234567" {
		t.Fatalf("bank_masked = %q %v", got, err)
	}
}
