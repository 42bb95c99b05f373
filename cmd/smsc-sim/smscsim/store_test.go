package smscsim

import (
	"fmt"
	"testing"
)

func TestHealthzAndStatsShape(t *testing.T) {
	srv := startSim(t, Config{Operators: []OperatorConfig{{Name: "mci", Addr: "127.0.0.1:0"}}})
	var h struct {
		Status    string            `json:"status"`
		Operators map[string]string `json:"operators"`
	}
	if code := httpJSON(t, srv, "GET", "/healthz", "", &h); code != 200 || h.Status != "ok" || h.Operators["mci"] != srv.Addr("mci") {
		t.Fatalf("healthz %d %+v", code, h)
	}
	var raw map[string]any
	httpJSON(t, srv, "GET", "/log", "", &raw)
	for _, k := range []string{"operators", "total", "duplicates", "duplicate_destinations", "store"} {
		if _, ok := raw[k]; !ok {
			t.Fatalf("stats lacks %q: %v", k, raw)
		}
	}
	if code := httpJSON(t, srv, "POST", "/control/disconnect", `{"operator":"mci","bogus":1}`, nil); code != 400 {
		t.Fatalf("unknown field: %d", code)
	}
	if code := httpJSON(t, srv, "POST", "/control/outcome", `{"to":"1","stat":"NOPE"}`, nil); code != 400 {
		t.Fatalf("bad stat: %d", code)
	}
}

func TestStoreCaps(t *testing.T) {
	// Ring: the newest messages are kept.
	srv := startSim(t, Config{MaxStored: 5, NoHTTP: true})
	e := dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	for i := range 8 {
		e.submit(submitPDU("3000", "989120000001", 0, 0, 0, []byte(fmt.Sprint("m", i))))
	}
	msgs := srv.Messages("989120000001")
	if len(msgs) != 5 || msgs[0].Text != "m3" || msgs[4].Text != "m7" {
		t.Fatalf("ring kept %v", msgs)
	}
	// Count only: the first messages are kept, then only counters.
	cfg, _ := Profile("bench")
	cfg.MaxStored, cfg.NoHTTP = 3, true
	srv = startSim(t, cfg)
	e = dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	for i := range 6 {
		e.submit(submitPDU("3000", "989120000001", 0, 0, 1, []byte(fmt.Sprint("m", i))))
	}
	st := srv.Stats()
	if st.Store.Stored != 3 || st.Store.CountedOnly != 3 || st.Total.Accepted != 6 {
		t.Fatalf("store %+v", st.Store)
	}
	waitFor(t, func() bool { return srv.Stats().Total.ReceiptsAcked == 6 }, "bench receipts")

	// KeepFrom: a kept sender line is stored above the count-only cap.
	cfg.KeepFrom = []string{"1000"}
	srv = startSim(t, cfg)
	e = dialESME(t, srv.Addr("mci"), true)
	e.mustBind(srv)
	for i := range 5 {
		e.submit(submitPDU("3000", "989120000001", 0, 0, 0, []byte(fmt.Sprint("m", i))))
	}
	e.submit(submitPDU("1000", "989120000002", 0, 0, 0, []byte("code 123456")))
	if got := srv.Messages("989120000002"); len(got) != 1 || got[0].Text != "code 123456" || got[0].FirstSubmit.IsZero() {
		t.Fatalf("kept sender line: %v", got)
	}
	if st := srv.Stats(); st.Store.CountedOnly != 2 {
		t.Fatalf("store %+v", st.Store)
	}
}
