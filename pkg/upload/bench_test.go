package upload

import (
	"archive/zip"
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// TestBenchParse measures parsing a generated 1,000,000-row file, xlsx and csv:
// the worker's whole path (read, normalise, dedupe, COPY into file_rows, blacklist
// count, report) and the reader alone, with rows/s, the peak Go heap and the peak
// RSS of this process (reset through /proc/self/clear_refs before each run).
//
//	BENCH=1 go test -count=1 -run TestBenchParse -v ./pkg/upload/
//
// BENCH_ROWS changes the row count; BENCH_LIBREOFFICE=1 also converts the csv to
// xlsx with LibreOffice (a shared-strings table, as Excel writes) and measures that;
// BENCH_FILE names one more file to measure (BENCH_ROWS distinct valid numbers).
func TestBenchParse(t *testing.T) {
	if os.Getenv("BENCH") != "1" {
		t.Skip("BENCH=1 runs the parse benchmark")
	}
	n := MaxRecords
	if v, err := strconv.Atoi(os.Getenv("BENCH_ROWS")); err == nil && v > 0 {
		n = v
	}
	dir := t.TempDir()
	start := time.Now()
	csvPath := writeNumbersCSV(t, n)
	xlsxPath := benchXLSX(t, dir, n)
	t.Logf("generated %d rows in %v (csv %s, xlsx %s)", n, time.Since(start).Round(time.Millisecond),
		size(csvPath), size(xlsxPath))
	sstPath := benchSharedStrings(t, dir, n)
	files := []string{xlsxPath, sstPath, csvPath}
	labels := []string{"xlsx (excelize stream writer)", "xlsx (shared strings)", "csv"}
	if os.Getenv("BENCH_LIBREOFFICE") == "1" {
		start = time.Now()
		out := filepath.Join(dir, "lo")
		cmd := exec.Command("soffice", "--headless", "--infilter=CSV:44,34,76,1", "--convert-to", "xlsx", "--outdir", out, csvPath)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("soffice: %v\n%s", err, b)
		}
		lo := filepath.Join(out, "bench.xlsx")
		t.Logf("LibreOffice converted the csv in %v (%s)", time.Since(start).Round(time.Millisecond), size(lo))
		files = append(files, lo)
		labels = append(labels, "xlsx (LibreOffice)")
	}

	if p := os.Getenv("BENCH_FILE"); p != "" {
		files = append(files, p)
		labels = append(labels, filepath.Base(p))
	}
	e := newParseEnv(t)
	for i, p := range files {
		name := labels[i]
		m := measure(func() {
			if c := readOnly(t, p); c.Valid != n {
				t.Fatalf("%s: %+v", p, c)
			}
		})
		report(t, name+", read", n, m)
		id := e.add(filepath.Base(p), PurposeSend, readFile(t, p))
		m = measure(func() {
			if err := e.svc.Parse(context.Background(), id); err != nil {
				t.Fatal(err)
			}
		})
		d, _ := e.svc.Get(context.Background(), e.account, id)
		if d.Status != StatusReady || d.Valid != n {
			t.Fatalf("%s: %s %q valid %d", p, d.Status, d.Error, d.Valid)
		}
		report(t, name+", parse + COPY", n, m)
		if _, err := e.db.Pool.Exec(context.Background(), `DELETE FROM files WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
	}
}

// readOnly scans a file without keeping its rows.
func readOnly(t *testing.T, p string) Counts {
	c, err := readAll(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readAll scans a file without keeping its rows and returns the counts or the error.
func readAll(p string) (Counts, error) {
	src, err := openSource(p, strings.TrimPrefix(filepath.Ext(p), "."))
	if err != nil {
		return Counts{}, err
	}
	defer src.Close()
	sc, err := newScanner(src, PurposeSend, classifyTest)
	if err != nil {
		return Counts{}, err
	}
	for {
		if _, err := sc.Next(); err == io.EOF {
			return sc.counts, nil
		} else if err != nil {
			return sc.counts, err
		}
	}
}

type measured struct {
	took     time.Duration
	cpu      time.Duration // this process's user + system time
	peakHeap uint64
	peakRSS  uint64
}

// measure runs f and records its time, the peak heap (sampled) and the peak RSS.
func measure(f func()) measured {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	cpu0 := cpuTime()
	start := time.Now()
	f()
	m := measured{took: time.Since(start), cpu: cpuTime() - cpu0}
	close(stop)
	<-done
	m.peakHeap = peak.Load()
	m.peakRSS = vmHWM()
	return m
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// vmHWM is the process's peak resident set in bytes.
func vmHWM() uint64 { return procStatus("VmHWM:") }

// procStatus reads a size in kB from /proc/self/status, in bytes.
func procStatus(field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func report(t *testing.T, what string, n int, m measured) {
	line := fmt.Sprintf("%-44s %8d rows %6.2f s %8.0f rows/s  cpu %6.2f s  peak heap %4d MB  peak RSS %4d MB",
		what, n, m.took.Seconds(), float64(n)/m.took.Seconds(), m.cpu.Seconds(), m.peakHeap>>20, m.peakRSS>>20)
	t.Log(line)
	fmt.Println("BENCH", line)
}

func size(p string) string {
	st, err := os.Stat(p)
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.1f MB", float64(st.Size())/(1<<20))
}

// benchNumber is the i-th of distinct numbers spread over the three operators.
func benchNumber(i int) string {
	return [...]string{"0912", "0935", "0921"}[i%3] + fmt.Sprintf("%07d", i/3)
}

// benchXLSX writes the same rows as xlsx with excelize's stream writer, the numbers
// as numeric cells (the leading 0 lost, as a typed sheet has them).
func benchXLSX(t *testing.T, dir string, n int) string {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.SetRow("A1", []any{"نام", "شماره موبایل", "شهر"}); err != nil {
		t.Fatal(err)
	}
	row := make([]any, 3)
	for i := range n {
		num, _ := strconv.Atoi(benchNumber(i))
		row[0], row[1], row[2] = "مشترک "+strconv.Itoa(i), num, "تهران"
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, row); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "bench.xlsx")
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteTo(out); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// benchSharedStrings writes the rows as Excel does: every text in a shared-strings
// table (a million unique names), the numbers numeric.
func benchSharedStrings(t *testing.T, dir string, n int) string {
	p := filepath.Join(dir, "shared.xlsx")
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(out)
	writeBookParts(t, zw, true)
	const ns = `xmlns="` + sheetNS + `"`
	w, err := zw.Create("xl/sharedStrings.xml")
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?><sst %s count="%d" uniqueCount="%d">`, ns, 2*n+3, n+4)
	bw.WriteString(`<si><t>نام</t></si><si><t>شماره موبایل</t></si><si><t>شهر</t></si><si><t>تهران</t></si>`)
	for i := range n {
		fmt.Fprintf(bw, `<si><t>مشترک %d</t></si>`, i)
	}
	bw.WriteString(`</sst>`)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	w, err = zw.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	bw = bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?><worksheet %s><dimension ref="A1:C%d"/><sheetData>`, ns, n+1)
	bw.WriteString(`<row r="1" spans="1:3"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>`)
	for i := range n {
		r := i + 2
		fmt.Fprintf(bw, `<row r="%d" spans="1:3"><c r="A%d" t="s"><v>%d</v></c><c r="B%d"><v>%s</v></c><c r="C%d" t="s"><v>3</v></c></row>`,
			r, r, i+4, r, strings.TrimPrefix(benchNumber(i), "0"), r)
	}
	bw.WriteString(`</sheetData></worksheet>`)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}
