package deploy

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dashboard is the part of Grafana's dashboard model the tests read.
type dashboard struct {
	Title      string `json:"title"`
	UID        string `json:"uid"`
	Templating struct {
		List []variable `json:"list"`
	} `json:"templating"`
	Panels []panel `json:"panels"`
}

type panel struct {
	ID         int                      `json:"id"`
	Type       string                   `json:"type"`
	Title      string                   `json:"title"`
	Datasource *datasource              `json:"datasource"`
	GridPos    struct{ H, W, X, Y int } `json:"gridPos"`
	Targets    []struct {
		RefID      string      `json:"refId"`
		Expr       string      `json:"expr"`
		Datasource *datasource `json:"datasource"`
	} `json:"targets"`
	Panels []panel `json:"panels"` // a collapsed row's
}

// variable is a dashboard variable.
type variable struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Query string `json:"query"`
}

type datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

// dsVar is the dashboard's datasource variable: the Prometheus chosen on import.
const dsVar = "${datasource}"

func loadDashboard(t *testing.T) dashboard {
	t.Helper()
	var d dashboard
	if err := json.Unmarshal(Dashboard, &d); err != nil {
		t.Fatalf("grafana/chapar.json: %v", err)
	}
	return d
}

// all is every panel, those inside collapsed rows included.
func (d dashboard) all() []panel {
	var out []panel
	for _, p := range d.Panels {
		out = append(out, p)
		out = append(out, p.Panels...)
	}
	return out
}

// The dashboard is one Grafana can import: a title and uid, a Prometheus
// datasource variable every panel and query uses, unique panel ids, panels on
// the 24-column grid without overlapping, and at least one query per panel,
// each with its own refId.
func TestDashboardShape(t *testing.T) {
	d := loadDashboard(t)
	if d.Title == "" || d.UID == "" {
		t.Fatalf("title %q, uid %q", d.Title, d.UID)
	}
	if !slices.Contains(d.Templating.List, variable{Name: "datasource", Type: "datasource", Query: "prometheus"}) {
		t.Fatal("no Prometheus datasource variable named datasource")
	}
	ids := map[int]string{}
	taken := map[[2]int]string{}
	for _, p := range d.all() {
		if other, dup := ids[p.ID]; dup || p.ID <= 0 {
			t.Errorf("panel %q: id %d (also %q)", p.Title, p.ID, other)
		}
		ids[p.ID] = p.Title
		g := p.GridPos
		if g.W < 1 || g.H < 1 || g.X < 0 || g.X+g.W > 24 || g.Y < 0 {
			t.Errorf("panel %q: gridPos %+v off the 24-column grid", p.Title, g)
		}
		for y := g.Y; y < g.Y+g.H; y++ {
			for x := g.X; x < g.X+g.W; x++ {
				if other, ok := taken[[2]int{x, y}]; ok {
					t.Errorf("panel %q overlaps %q at (%d, %d)", p.Title, other, x, y)
				}
				taken[[2]int{x, y}] = p.Title
			}
		}
		checkPanel(t, p)
	}
}

// checkPanel checks a panel's type, datasource and queries.
func checkPanel(t *testing.T, p panel) {
	t.Helper()
	switch p.Type {
	case "row":
		if p.Title == "" || len(p.Targets) > 0 {
			t.Errorf("row %d: title %q, %d queries", p.ID, p.Title, len(p.Targets))
		}
		return
	case "timeseries", "stat":
	default:
		t.Errorf("panel %q: type %q", p.Title, p.Type)
	}
	if p.Title == "" {
		t.Errorf("panel %d has no title", p.ID)
	}
	if p.Datasource == nil || *p.Datasource != (datasource{"prometheus", dsVar}) {
		t.Errorf("panel %q: datasource %+v", p.Title, p.Datasource)
	}
	if len(p.Targets) == 0 {
		t.Errorf("panel %q has no query", p.Title)
	}
	refs := map[string]bool{}
	for _, q := range p.Targets {
		if q.RefID == "" || refs[q.RefID] || strings.TrimSpace(q.Expr) == "" {
			t.Errorf("panel %q: query %q refId %q", p.Title, q.Expr, q.RefID)
		}
		refs[q.RefID] = true
		if q.Datasource == nil || *q.Datasource != *p.Datasource {
			t.Errorf("panel %q: query %s datasource %+v", p.Title, q.RefID, q.Datasource)
		}
	}
}

// The dashboard covers what the operations issue asks to watch: a row each for
// throughput, latency, queues, binds and money.
func TestDashboardSections(t *testing.T) {
	var rows []string
	for _, p := range loadDashboard(t).Panels {
		if p.Type == "row" {
			rows = append(rows, p.Title)
		}
	}
	for _, want := range []string{"Throughput", "Latency", "Queues", "Binds", "Money and customers"} {
		if !slices.Contains(rows, want) {
			t.Errorf("no %q row (rows: %q)", want, rows)
		}
	}
}

var metricName = regexp.MustCompile(`\bchapar_[a-z0-9_]+`)

// Every Chapar metric the dashboard and the alert rules use is documented in
// docs/metrics.md (a histogram by its base name).
func TestDashboardAndRulesUseDocumentedMetrics(t *testing.T) {
	doc, err := os.ReadFile("../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	used := metricName.FindAllString(string(Rules), -1)
	for _, p := range loadDashboard(t).all() {
		for _, q := range p.Targets {
			used = append(used, metricName.FindAllString(q.Expr, -1)...)
		}
	}
	if len(used) == 0 {
		t.Fatal("no chapar_ metric found in the dashboard or the rules")
	}
	for _, m := range used {
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(m, "_bucket"), "_count"), "_sum")
		if !strings.Contains(string(doc), "`"+base+"`") {
			t.Errorf("%s is used but docs/metrics.md does not document `%s`", m, base)
		}
	}
}
