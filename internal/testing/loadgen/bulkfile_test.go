package loadgen

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestWriteBulkFile writes the bulk-send benchmark's spreadsheet when
// LOADGEN_BULK_OUT names a .xlsx or .csv path: LOADGEN_BULK_ROWS rows (default
// 1,000,000) of unique mobiles spread over the operators, stored as numeric cells
// (the leading 0 lost, as spreadsheets do) with a name column, under a Persian
// header. make bench uploads it through the API.
func TestWriteBulkFile(t *testing.T) {
	out := os.Getenv("LOADGEN_BULK_OUT")
	if out == "" {
		t.Skip("LOADGEN_BULK_OUT not set")
	}
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("LOADGEN_BULK_ROWS")); err == nil && v > 0 {
		n = v
	}
	prefixes := []int64{912, 935, 920, 901, 919, 936}
	mobile := func(i int) int64 { return prefixes[i%len(prefixes)]*10_000_000 + int64(i/len(prefixes)) }
	header := []string{"شماره موبایل", "نام"}
	if strings.HasSuffix(out, ".csv") {
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		w := csv.NewWriter(f)
		_ = w.Write(header)
		for i := 0; i < n; i++ {
			_ = w.Write([]string{strconv.FormatInt(mobile(i), 10), fmt.Sprintf("مشتری %d", i)})
		}
		w.Flush()
		if err := w.Error(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.SetRow("A1", []any{header[0], header[1]}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, []any{mobile(i), fmt.Sprintf("مشتری %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(out); err != nil {
		t.Fatal(err)
	}
}
