package smscsim

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// DefaultBlockedErr is the receipt "err:" code of a message to a number that
// blocked advertising SMS at its operator (*800#), unless Config.BlockedErr says
// otherwise. Iranian carriers accept such a submit_sm and report the block in
// the delivery receipt (stat REJECTD with their "blocked by the subscriber"
// code), which is what the simulator does.
const DefaultBlockedErr = "014"

// blockedKey is how a blocked number is kept: the operator and the national ten
// digits, so that 98912…, 0912… and 912… are one number.
func blockedKey(op, number string) string {
	if len(number) > 10 {
		number = number[len(number)-10:]
	}
	return op + "\x00" + number
}

// ParseBlocked parses SIM_BLOCKED: "mci:989121234567,irancell:989351234567"
// (operator:number, as many as needed).
func ParseBlocked(s string) (map[string][]string, error) {
	out := map[string][]string{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		op, num, ok := strings.Cut(item, ":")
		if !ok || op == "" || num == "" {
			return nil, fmt.Errorf("smscsim: blocked %q: want operator:number", item)
		}
		out[op] = append(out[op], strings.TrimSpace(num))
	}
	return out, nil
}

// blockedErr is the receipt error for a message of op to number, and whether the
// number blocked advertising SMS at op.
func (srv *Server) blockedErr(op, number string) (string, bool) {
	m := srv.blocked.Load()
	if m == nil || len(*m) == 0 {
		return "", false
	}
	if _, ok := (*m)[blockedKey(op, number)]; !ok {
		return "", false
	}
	if srv.cfg.BlockedErr != "" {
		return srv.cfg.BlockedErr, true
	}
	return DefaultBlockedErr, true
}

// Block makes op answer every later message to number as blocked by its
// subscriber (unblock: false removes it).
func (srv *Server) Block(op, number string, block bool) error {
	if _, ok := srv.ops[op]; !ok {
		return fmt.Errorf("smscsim: unknown operator %q", op)
	}
	if number == "" {
		return errors.New("smscsim: blocked number is empty")
	}
	srv.blockedMu.Lock()
	defer srv.blockedMu.Unlock()
	old := srv.blocked.Load()
	m := map[string]string{}
	if old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	if block {
		m[blockedKey(op, number)] = op + ":" + number
	} else {
		delete(m, blockedKey(op, number))
	}
	srv.blocked.Store(&m)
	return nil
}

// Blocked lists the blocked numbers as operator:number, sorted.
func (srv *Server) Blocked() []string {
	out := []string{}
	if m := srv.blocked.Load(); m != nil {
		for _, v := range *m {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// handleBlocked is POST and DELETE /control/blocked {"operator", "to"}.
func (srv *Server) handleBlocked(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Operator string `json:"operator"`
		To       string `json:"to"`
	}
	if err := decodeBody(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if err := srv.Block(req.Operator, req.To, r.Method == http.MethodPost); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"blocked": srv.Blocked()})
}
