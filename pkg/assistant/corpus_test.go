package assistant

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus.golden and testdata/remote/*.json")

// sample is one text of testdata/corpus with its expected properties: the
// brand, the facts the text holds (keep: every action must keep them) and, per
// action, the part budget it must succeed within or "declines" when the
// offline model must say it cannot.
type sample struct {
	name, brand, text string
	keep              []string
	expect            map[Action]string
}

func loadCorpus(t testing.TB) []sample {
	t.Helper()
	files, err := filepath.Glob("testdata/corpus/*.txt")
	if err != nil || len(files) != 50 {
		t.Fatalf("corpus: %d texts (%v), want 50", len(files), err)
	}
	out := make([]sample, 0, len(files))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		head, text, ok := strings.Cut(string(raw), "\n---\n")
		if !ok {
			t.Fatalf("%s: no --- line", f)
		}
		s := sample{name: strings.TrimSuffix(filepath.Base(f), ".txt"), text: strings.TrimSuffix(text, "\n"), expect: map[Action]string{}}
		for _, line := range strings.Split(head, "\n") {
			k, v, _ := strings.Cut(line, ":")
			v = strings.TrimSpace(v)
			switch k {
			case "brand":
				s.brand = v
			case "keep":
				for _, f := range strings.Split(v, "|") {
					if f = strings.TrimSpace(f); f != "" {
						s.keep = append(s.keep, f)
					}
				}
			case string(Shorter), string(Longer), string(Friendly), string(Formal):
				s.expect[Action(k)] = v
			}
		}
		out = append(out, s)
	}
	return out
}

func offline(t testing.TB, task Task) (string, error) {
	t.Helper()
	out, err := Offline{}.Complete(context.Background(), Prompt{Task: task})
	var d *Declined
	if err != nil && !errors.As(err, &d) {
		t.Fatal(err)
	}
	return out, err
}

// TestCorpusFacts: the fact finder finds exactly the facts each text lists.
func TestCorpusFacts(t *testing.T) {
	for _, s := range loadCorpus(t) {
		var got, want []string
		for k := range keysOf(factsOf(s.text)) {
			got = append(got, k)
		}
		for _, k := range s.keep {
			fs := factsOf(k)
			if len(fs) != 1 || fs[0].surface != normalizeLetters(k) {
				t.Fatalf("%s: keep %q is not one fact: %q", s.name, k, fs)
			}
			want = append(want, fs[0].key)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: facts %q, want %q", s.name, got, want)
		}
	}
}

// TestCorpusExpectations: each action on each text does what the text's
// expected properties say: succeeds within its part budget, or declines with a
// reason. A success is checked by Check and, independently, by the plain rules
// of the corpus: every fact of the text in the reply as written (Arabic ي and
// ك read as Persian), the brand kept, no Arabic letter, the text changed.
func TestCorpusExpectations(t *testing.T) {
	for _, s := range loadCorpus(t) {
		for _, a := range QuickActions {
			want := s.expect[a]
			if want == "declines" {
				for budget := 1; budget <= 3; budget++ {
					if out, err := offline(t, Task{Action: a, Text: s.text, Brand: s.brand, Parts: budget}); err == nil ||
						err.(*Declined).Reason == "" {
						t.Errorf("%s %s (budget %d): should decline, wrote %q", s.name, a, budget, out)
					}
				}
				continue
			}
			budget, err := strconv.Atoi(want)
			if err != nil || budget < 1 || budget > 3 {
				t.Fatalf("%s: %s: %q is neither a budget nor «declines»", s.name, a, want)
			}
			out, err := offline(t, Task{Action: a, Text: s.text, Brand: s.brand, Parts: budget})
			if err != nil {
				t.Errorf("%s %s (budget %d): declined: %v", s.name, a, budget, err)
				continue
			}
			if fs := Check(s.text, out, Spec{Action: a, Brand: s.brand, Parts: budget}); len(fs) > 0 {
				t.Errorf("%s %s (budget %d): %v in %q", s.name, a, budget, fs, out)
			}
			plainRules(t, s, a, out, budget)
		}
	}
}

// plainRules are the corpus's own checks of a reply, apart from Check.
func plainRules(t *testing.T, s sample, a Action, out string, budget int) {
	t.Helper()
	for _, k := range s.keep {
		if !strings.Contains(out, normalizeLetters(k)) {
			t.Errorf("%s %s: lost %q: %q", s.name, a, k, out)
		}
	}
	if brand := normalizeLetters(s.brand); strings.Contains(normalizeLetters(s.text), brand) && !strings.Contains(out, brand) {
		t.Errorf("%s %s: lost the brand: %q", s.name, a, out)
	}
	if strings.ContainsAny(out, "يك") || out == s.text || parts(out, false) > budget {
		t.Errorf("%s %s: Arabic letters, unchanged or over %d parts: %q", s.name, a, budget, out)
	}
	if a == Shorter && parts(out, false) > parts(s.text, false) {
		t.Errorf("%s shorter: more parts than the text: %q", s.name, out)
	}
}

// TestCorpusEveryBudget: every action, with every budget and the opt-out
// footer on and off, declines or writes a reply Check accepts. The one fault
// allowed is a «shorter» text still over the budget (the service gives it with
// a notice that says so), and then it has no more parts than the text.
func TestCorpusEveryBudget(t *testing.T) {
	for _, s := range loadCorpus(t) {
		for _, a := range QuickActions {
			for budget := 1; budget <= 3; budget++ {
				for _, c11 := range []bool{false, true} {
					out, err := offline(t, Task{Action: a, Text: s.text, Brand: s.brand, Parts: budget, Cancel11: c11})
					if err != nil {
						continue
					}
					fs := Check(s.text, out, Spec{Action: a, Brand: s.brand, Parts: budget, Cancel11: c11})
					if a == Shorter && len(fs) == 1 && fs[0].Rule == RuleBudget && parts(out, c11) <= parts(s.text, c11) {
						continue
					}
					if len(fs) > 0 {
						t.Errorf("%s %s budget %d cancel11 %v: %v in %q", s.name, a, budget, c11, fs, out)
					}
				}
			}
		}
	}
}

// TestCorpusGolden: the replies at the expected budgets, as testdata/corpus.golden
// holds them for reading (go test -run TestCorpusGolden -update rewrites it).
func TestCorpusGolden(t *testing.T) {
	var b strings.Builder
	for _, s := range loadCorpus(t) {
		fmt.Fprintf(&b, "=== %s\n%s\n", s.name, s.text)
		for _, a := range QuickActions {
			budget, err := strconv.Atoi(s.expect[a])
			if err != nil {
				budget = 3
			}
			out, err := offline(t, Task{Action: a, Text: s.text, Brand: s.brand, Parts: budget})
			if err != nil {
				fmt.Fprintf(&b, "--- %s: declined: %s\n", a, err.(*Declined).Reason)
				continue
			}
			fmt.Fprintf(&b, "--- %s (budget %d, %d parts):\n%s\n", a, budget, parts(out, false), out)
		}
	}
	golden(t, "testdata/corpus.golden", b.String())
}

// golden compares got with the file, or writes the file with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update rewrites it; read the diff):\n%s", path, firstDiff(string(want), got))
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, a, b)
		}
	}
	return ""
}
