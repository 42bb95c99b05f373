package bank

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/platform/db"
)

// TestCountLatency measures the counts of the bench profile's shapes on a seeded bank
// (scripts/bench-targeted.sh sets BANK_BENCH_DATABASE_URL; skipped otherwise): p50 and
// p99 of BANK_BENCH_N uncached counts per shape, and the PostgreSQL backend's CPU per
// count read from /proc (the server runs on this machine).
func TestCountLatency(t *testing.T) {
	url := os.Getenv("BANK_BENCH_DATABASE_URL")
	if url == "" {
		t.Skip("BANK_BENCH_DATABASE_URL not set")
	}
	n, _ := strconv.Atoi(os.Getenv("BANK_BENCH_N"))
	if n <= 0 {
		n = 50
	}
	ctx := context.Background()
	pool, err := db.Open(ctx, url+"&pool_max_conns=1")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	s := New(pool, nil)
	shapes, err := benchShapes(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range shapes {
		var pid int
		if err := pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
			t.Fatal(err)
		}
		cpu0 := procCPU(pid)
		times := make([]time.Duration, n)
		var total int64
		for i := range n {
			start := time.Now()
			n, err := s.benchCount(ctx, sh)
			if err != nil {
				t.Fatal(err)
			}
			times[i] = time.Since(start)
			total = n
		}
		cpu := procCPU(pid) - cpu0
		slices.Sort(times)
		fmt.Printf("bank count %-22s numbers %9d  p50 %7.1f ms  p99 %7.1f ms  server CPU %6.1f ms/count\n", sh.name, total,
			ms(times[n/2]), ms(times[min(n-1, n*99/100)]), cpu*1000/float64(n))
	}
}

// benchCount counts a shape uncached; the category list sums its counts.
func (s *Service) benchCount(ctx context.Context, sh benchShape) (int64, error) {
	if sh.name == "category list (22)" {
		cats, err := s.JobCategories(ctx)
		var n int64
		for _, c := range cats {
			n += c.Count
		}
		return n, err
	}
	gs, err := s.countGroups(ctx, sh.t)
	return split(gs).Total, err
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

type benchShape struct {
	name string
	t    Target
}

// benchShapes: Tehran province and county, a square of a mid-size city (Qazvin, about
// 8 × 8 km), a 5 km circle in Tehran, the 20 cells nearest Tehran's centre, a business
// category and the list of the 22 categories with their counts.
func benchShapes(ctx context.Context, s *Service) ([]benchShape, error) {
	var tehranCounty int
	var tLon, tLat, qLon, qLat float64
	err := s.pool.QueryRow(ctx, `SELECT k.code, c.lon, c.lat, q.lon, q.lat FROM geo_counties k, geo_cities c, geo_cities q
		WHERE k.name_fa = 'تهران' AND c.name_fa = 'تهران' AND q.name_fa = 'قزوین' LIMIT 1`).Scan(&tehranCounty, &tLon, &tLat, &qLon, &qLat)
	if err != nil {
		return nil, fmt.Errorf("bench places: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT id FROM bank_towers ORDER BY (lon - $1)^2 + (lat - $2)^2 LIMIT 20`, tLon, tLat)
	if err != nil {
		return nil, err
	}
	var towers []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		towers = append(towers, id)
	}
	rows.Close()
	d := 0.04
	return []benchShape{
		{"province (Tehran)", Target{Provinces: []int{28}}},
		{"county (Tehran)", Target{Counties: []int{tehranCounty}}},
		{"polygon (Qazvin city)", Target{Polygon: [][2]float64{{qLon - d, qLat - d}, {qLon + d, qLat - d}, {qLon + d, qLat + d}, {qLon - d, qLat + d}}}},
		{"circle 5 km (Tehran)", Target{Circle: &Circle{Lat: tLat, Lon: tLon, Radius: 5000}}},
		{"20 towers (Tehran)", Target{Towers: towers, Operators: []string{"irancell"}}},
		{"business category", Target{Categories: []int{3}}},
		{"category list (22)", Target{}},
	}, nil
}

// procCPU is a process's user+system CPU in seconds (0 when /proc cannot say).
func procCPU(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	sy, _ := strconv.ParseFloat(f[12], 64)
	return (u + sy) / 100 // clock ticks (100 Hz)
}
