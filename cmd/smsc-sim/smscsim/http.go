package smscsim

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"
)

const maxListLimit = 100000

// Handler returns the JSON control and inspection API:
//
//	GET    /healthz                       liveness and SMPP addresses
//	GET    /messages?to=&from=&operator=&since=RFC3339&limit=
//	                                      reassembled messages, oldest first
//	GET    /messages/latest?to=           last message to a handset (404 if none)
//	DELETE /messages                      empty the store and the duplicate detector
//	GET    /stats (alias /log)            counters per operator, totals, duplicates
//	POST   /reset                         DELETE /messages and zero the counters
//	POST   /mo                            {"operator","from","to","text"} inject an MO; optional
//	                                      "encoding" (gsm7|ucs2|latin1), "ref16", "parts" ([3,1] order/loss)
//	                                      "split_surrogates", "poison" (source|dest|text)
//	POST   /control/disconnect            {"operator":"mci","after":100,"down_ms":0}
//	GET    /control/outcome               forced outcomes
//	POST   /control/outcome               {"to":"98912…","stat":"UNDELIV"} ("" stat clears)
//	DELETE /control/outcome?to=           clear one forced outcome, or all without to
//	GET    /control/blocked               numbers blocked at their operator (*800#)
//	POST   /control/blocked               {"operator","to"}: block advertising SMS to a number
//	DELETE /control/blocked               {"operator","to"}: unblock it
func (srv *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", srv.handleHealth)
	mux.HandleFunc("GET /messages", srv.handleMessages)
	mux.HandleFunc("GET /messages/latest", srv.handleLatest)
	mux.HandleFunc("DELETE /messages", func(w http.ResponseWriter, r *http.Request) {
		srv.ResetMessages()
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /stats", srv.handleStats)
	mux.HandleFunc("GET /log", srv.handleStats)
	mux.HandleFunc("POST /reset", func(w http.ResponseWriter, r *http.Request) {
		srv.Reset()
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("POST /mo", srv.handleMO)
	mux.HandleFunc("POST /control/disconnect", srv.handleDisconnect)
	mux.HandleFunc("POST /control/carrier", srv.handleConditions)
	mux.HandleFunc("GET /control/outcome", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"outcomes": srv.ForcedOutcomes()})
	})
	mux.HandleFunc("POST /control/outcome", srv.handleForceOutcome)
	mux.HandleFunc("GET /control/blocked", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"blocked": srv.Blocked()})
	})
	mux.HandleFunc("POST /control/blocked", srv.handleBlocked)
	mux.HandleFunc("DELETE /control/blocked", srv.handleBlocked)
	mux.HandleFunc("DELETE /control/outcome", func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); to != "" {
			srv.ForceOutcome(to, "")
		} else {
			srv.ClearForcedOutcomes()
		}
		writeJSON(w, http.StatusOK, map[string]any{"outcomes": srv.ForcedOutcomes()})
	})
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

func decodeBody(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New("invalid JSON body: " + err.Error())
	}
	return nil
}

func (srv *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "operators": srv.Addrs()})
}

func (srv *Server) handleMessages(w http.ResponseWriter, r *http.Request) {
	qv := r.URL.Query()
	q := Query{To: qv.Get("to"), From: qv.Get("from"), Operator: qv.Get("operator"), Limit: 1000}
	if s := qv.Get("since"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			writeError(w, http.StatusBadRequest, errors.New("since: want RFC3339"))
			return
		}
		q.Since = t
	}
	if s := qv.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 || n > maxListLimit {
			writeError(w, http.StatusBadRequest, errors.New("limit: want 1..100000"))
			return
		}
		q.Limit = n
	}
	msgs := srv.Find(q)
	if msgs == nil {
		msgs = []Message{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"count": len(msgs), "messages": msgs})
}

func (srv *Server) handleLatest(w http.ResponseWriter, r *http.Request) {
	m, ok := srv.Latest(r.URL.Query().Get("to"))
	if !ok {
		writeError(w, http.StatusNotFound, errors.New("no message"))
		return
	}
	writeJSON(w, http.StatusOK, m)
}

func (srv *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	st := srv.Stats()
	if st.DuplicateDestinations == nil {
		st.DuplicateDestinations = []string{}
	}
	writeJSON(w, http.StatusOK, st)
}

func (srv *Server) handleMO(w http.ResponseWriter, r *http.Request) {
	var mo MO
	if err := decodeBody(r, &mo); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	n, err := srv.InjectMO(mo)
	switch {
	case errors.Is(err, ErrUnknownOperator):
		writeError(w, http.StatusNotFound, err)
		return
	case errors.Is(err, ErrQueueFull):
		writeError(w, http.StatusServiceUnavailable, err)
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"parts": n})
}

// DisconnectRequest is the body of POST /control/disconnect.
type DisconnectRequest struct {
	Operator string `json:"operator"`
	After    int    `json:"after"`   // drop after that many more accepted submit_sm; 0 = now
	DownMS   int64  `json:"down_ms"` // refuse connections for that long after the drop
}

func (srv *Server) handleDisconnect(w http.ResponseWriter, r *http.Request) {
	var req DisconnectRequest
	if err := decodeBody(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if req.After < 0 || req.DownMS < 0 {
		writeError(w, http.StatusBadRequest, errors.New("after and down_ms must not be negative"))
		return
	}
	err := srv.disconnect(req.Operator, req.After, time.Duration(req.DownMS)*time.Millisecond)
	if err != nil {
		writeError(w, http.StatusNotFound, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"operator": req.Operator, "after": req.After, "down_ms": req.DownMS})
}

func (srv *Server) handleForceOutcome(w http.ResponseWriter, r *http.Request) {
	var req struct {
		To   string `json:"to"`
		Stat Stat   `json:"stat"`
	}
	if err := decodeBody(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if req.To == "" {
		writeError(w, http.StatusBadRequest, errors.New("to is required"))
		return
	}
	if err := srv.ForceOutcome(req.To, req.Stat); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"outcomes": srv.ForcedOutcomes()})
}

// handleConditions is POST /control/carrier: {"operator", "rate", "delay_ms"}
// (CarrierConditions); zeros restore the configured behaviour.
func (srv *Server) handleConditions(w http.ResponseWriter, r *http.Request) {
	var req CarrierConditions
	if err := decodeBody(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if req.Rate < 0 || req.DelayMS < 0 {
		writeError(w, http.StatusBadRequest, errors.New("rate and delay_ms must not be negative"))
		return
	}
	if err := srv.SetConditions(req); err != nil {
		writeError(w, http.StatusNotFound, err)
		return
	}
	writeJSON(w, http.StatusOK, req)
}
