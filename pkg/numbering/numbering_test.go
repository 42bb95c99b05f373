package numbering_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/nyaruka/phonenumbers"

	"github.com/chapar/chapar/pkg/numbering"
)

// Every three-digit prefix 0900–0999: whether its blocks are allocated, and to whom.
// Ranges allocated block by block (0995, 0998, 0999) are checked block by block in
// TestPartlyAllocatedRanges.
func TestEveryPrefix(t *testing.T) {
	want := map[int]string{}
	for _, p := range []int{900, 901, 902, 903, 904, 905, 930, 933, 935, 936, 937, 938, 939} {
		want[p] = numbering.Irancell
	}
	for _, p := range []int{910, 911, 912, 913, 914, 915, 916, 917, 918, 919, 932, 990, 991, 992, 993, 994, 996} {
		want[p] = numbering.MCI
	}
	for _, p := range []int{920, 921, 922, 923} {
		want[p] = numbering.Rightel
	}
	want[931], want[934] = numbering.Other, numbering.Other // MTCE (Espadan), TeleKish
	partly := map[int]bool{995: true, 998: true, 999: true}
	for p := 900; p <= 999; p++ {
		if partly[p] {
			continue
		}
		for _, rest := range []string{"0000000", "1234567", "9999999"} {
			m := fmt.Sprintf("98%d%s", p, rest)
			op, ok := want[p]
			if got := numbering.Allocated(m); got != ok {
				t.Errorf("0%d: allocated %v, want %v", p, got, ok)
			}
			if !ok {
				op = numbering.Other
			}
			if got := numbering.Default(m); got != op {
				t.Errorf("0%d: operator %s, want %s", p, got, op)
			}
		}
	}
}

func TestPartlyAllocatedRanges(t *testing.T) {
	cases := []struct {
		mobile    string
		allocated bool
		op        string
	}{
		{"989990123456", true, numbering.MCI},
		{"989991012345", true, numbering.Irancell},
		{"989998812345", true, numbering.Rightel},
		{"989970123456", false, numbering.Other},
		{"989950000000", false, numbering.Other},
		{"989981234567", true, numbering.Other}, // Shatel Mobile
	}
	for _, c := range cases {
		if got := numbering.Allocated(c.mobile); got != c.allocated {
			t.Errorf("%s: allocated %v, want %v", c.mobile, got, c.allocated)
		}
		if got := numbering.Default(c.mobile); got != c.op {
			t.Errorf("%s: operator %s, want %s", c.mobile, got, c.op)
		}
	}
	for _, bad := range []string{"", "98912", "9891212345678", "0912123456a", "989a21234567"} {
		if numbering.Allocated(bad) {
			t.Errorf("%q allocated", bad)
		}
	}
}

// The table holds what the library says for every block, whatever the last five
// digits: the plan is decided by the first five national digits.
func TestAgreesWithLibrary(t *testing.T) {
	for i := 0; i < 10000; i += 7 {
		for _, rest := range []string{"00000", "31415", "99999"} {
			national := fmt.Sprintf("9%04d%s", i, rest)
			n, err := phonenumbers.Parse("0"+national, "IR")
			if err != nil {
				t.Fatal(err)
			}
			lib := phonenumbers.IsValidNumberForRegion(n, "IR") && phonenumbers.GetNumberType(n) == phonenumbers.MOBILE
			if got := numbering.Allocated("98" + national); got != lib {
				t.Fatalf("%s: allocated %v, library %v", national, got, lib)
			}
		}
	}
}

func TestBlocks(t *testing.T) {
	b := numbering.Blocks()
	if len(b) < 3000 || len(b) > 4500 {
		t.Fatalf("%d allocated blocks", len(b))
	}
	for i := 1; i < len(b); i++ {
		if b[i] <= b[i-1] {
			t.Fatal("blocks not ascending")
		}
	}
}

func BenchmarkAllocated(b *testing.B) {
	numbering.Allocated("989121234567")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		numbering.Allocated("989121234567")
	}
}

// The panel's copy of the plan is what the library says today.
func TestPanelCopyIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../web/src/lib/numberingPlan.ts")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != numbering.TypeScript() {
		t.Fatal("web/src/lib/numberingPlan.ts is stale: run go generate ./pkg/numbering")
	}
}
