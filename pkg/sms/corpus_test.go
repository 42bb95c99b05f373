package sms

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
)

// corpusPath is the segment-count corpus shared with the panel's counter
// (its vitest reads the same file).
const corpusPath = "testdata/segments_corpus.json"

var updateCorpus = flag.Bool("update", false, "rewrite "+corpusPath+" from boundaryCases")

// corpusCase is one entry of the corpus; the JSON names are fixed by the
// panel's test.
type corpusCase struct {
	Name       string   `json:"name"`
	Text       string   `json:"text"`
	Cancel11   bool     `json:"cancel11"`
	Encoding   Encoding `json:"encoding"`
	Characters int      `json:"characters"`
	Parts      int      `json:"parts"`
	CharsLeft  int      `json:"chars_left"`
}

// buildCorpus computes the corpus from boundaryCases with Count, and checks
// Count against the hand-worked figures on the way.
func buildCorpus(t *testing.T) []byte {
	t.Helper()
	cases := make([]corpusCase, 0, len(boundaryCases))
	for _, bc := range boundaryCases {
		st := Count(bc.text, bc.cancel11)
		if st != bc.want {
			t.Fatalf("%s: Count = %+v, worked out by hand %+v", bc.name, st, bc.want)
		}
		cases = append(cases, corpusCase{
			Name: bc.name, Text: bc.text, Cancel11: bc.cancel11,
			Encoding: st.Encoding, Characters: st.Characters, Parts: st.Parts, CharsLeft: st.CharsLeft,
		})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(cases); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCorpus checks every case of the frozen corpus against Count, and that
// the file is up to date with boundaryCases (go test -run TestCorpus -update
// rewrites it).
func TestCorpus(t *testing.T) {
	want := buildCorpus(t)
	if *updateCorpus {
		if err := os.WriteFile(corpusPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(corpusPath)
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("%s: %v", corpusPath, err)
	}
	if len(cases) < 40 {
		t.Errorf("%s has %d cases, want at least 40", corpusPath, len(cases))
	}
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		names[c.Name] = true
		got := Count(c.Text, c.Cancel11)
		want := Stats{Encoding: c.Encoding, Characters: c.Characters, Parts: c.Parts, CharsLeft: c.CharsLeft}
		if got != want {
			t.Errorf("%s: Count = %+v, corpus says %+v", c.Name, got, want)
		}
		parts, err := Split(Compose(c.Text, c.Cancel11), 1)
		if err != nil || len(parts) != c.Parts {
			t.Errorf("%s: Split made %d parts (%v), corpus says %d", c.Name, len(parts), err, c.Parts)
		}
	}
	if !bytes.Equal(data, want) {
		t.Errorf("%s is stale: run go test ./pkg/sms -run TestCorpus -update", corpusPath)
	}
}
