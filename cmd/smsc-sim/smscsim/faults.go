package smscsim

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// SubmitFault makes the simulator misbehave for some submit_sm, the way real
// carriers do: answer a transient or permanent error status, accept the part
// and lose its submit_sm_resp, or accept it and drop the connection before
// answering.
type SubmitFault struct {
	// Dest is the destination it applies to; "" means every destination.
	Dest string
	// Part is the concatenated part (1-based) it applies to; 0 means every part.
	Part int
	// Status is the command_status answered instead of accepting the part;
	// 0 with DropResponse accepts it but never answers.
	Status uint32
	// DropResponse accepts the part (it is stored and its receipt comes) but
	// the submit_sm_resp is never written, as when a response is lost on the way.
	DropResponse bool
	// HoldResponse accepts the part (its receipt comes at once) but keeps the
	// submit_sm_resp until Server.ReleaseHeld: the receipt overtakes it.
	HoldResponse bool
	// NackEcho accepts the part but, before answering it, sends a query_sm
	// with the submit_sm's sequence number and nacks the ESME's generic_nack
	// of it with that same number (a generic_nack that is not an answer to
	// the submit_sm), then answers the submit_sm.
	NackEcho bool
	// Disconnect accepts the part (it is stored and its receipt comes) and then
	// drops every connection of the operator before answering it, so the part
	// is surely in flight when the connection goes.
	Disconnect bool
	// Times limits the fault to the first Times attempts of each matching
	// (destination, part); 0 means every attempt.
	Times int
}

// faultKey names one attempt target: a destination's part.
type faultKey struct {
	dest string
	part int
}

// faults matches submit_sm against the configured faults and counts attempts.
type faults struct {
	list     []SubmitFault
	mu       sync.Mutex
	attempts map[faultKey]int
}

func newFaults(list []SubmitFault) *faults {
	return &faults{list: list, attempts: map[faultKey]int{}}
}

// match returns the fault that applies to this attempt at dest's part, if any.
func (f *faults) match(dest string, part int) (SubmitFault, bool) {
	if f == nil {
		return SubmitFault{}, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.list) == 0 {
		return SubmitFault{}, false
	}
	k := faultKey{dest, part}
	f.attempts[k]++
	n := f.attempts[k]
	for _, x := range f.list {
		if (x.Dest == "" || x.Dest == dest) && (x.Part == 0 || x.Part == part) && (x.Times == 0 || n <= x.Times) {
			return x, true
		}
	}
	return SubmitFault{}, false
}

// ParseFaults reads SIM_SUBMIT_FAULTS: comma-separated DEST[:PART]=ACTION[*TIMES]
// where DEST is a destination or * for all, ACTION a command_status such as
// 0x08, "drop" (accept, lose the response), "hold" (accept, answer only at
// Server.ReleaseHeld), "nackecho" (see SubmitFault.NackEcho) or "disconnect"
// (accept, then drop the operator's connections unanswered), and *TIMES limits it to the first
// attempts, e.g. "989121234567:2=0x45,989121234568=0x08*2,*:3=drop".
func ParseFaults(s string) ([]SubmitFault, error) {
	var out []SubmitFault
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		f, err := parseFault(item)
		if err != nil {
			return nil, fmt.Errorf("submit fault %q: %w", item, err)
		}
		out = append(out, f)
	}
	return out, nil
}

func parseFault(item string) (SubmitFault, error) {
	var f SubmitFault
	target, action, ok := strings.Cut(item, "=")
	if !ok {
		return f, fmt.Errorf("want DEST[:PART]=ACTION[*TIMES]")
	}
	dest, part, hasPart := strings.Cut(target, ":")
	if dest != "*" {
		f.Dest = dest
	}
	if hasPart {
		n, err := strconv.Atoi(part)
		if err != nil || n < 1 {
			return f, fmt.Errorf("part %q: want a number from 1", part)
		}
		f.Part = n
	}
	if a, times, ok := strings.Cut(action, "*"); ok {
		n, err := strconv.Atoi(times)
		if err != nil || n < 1 {
			return f, fmt.Errorf("times %q: want a positive number", times)
		}
		f.Times, action = n, a
	}
	switch action {
	case "drop":
		f.DropResponse = true
		return f, nil
	case "hold":
		f.HoldResponse = true
		return f, nil
	case "nackecho":
		f.NackEcho = true
		return f, nil
	case "disconnect":
		f.Disconnect = true
		return f, nil
	}
	st, err := strconv.ParseUint(action, 0, 32)
	if err != nil || st == 0 {
		return f, fmt.Errorf("action %q: want a non-zero command_status such as 0x08, drop, hold, nackecho or disconnect", action)
	}
	f.Status = uint32(st)
	return f, nil
}

// SetSubmitFaults replaces the submit faults (Config.SubmitFaults) from the next
// submit_sm on, their attempt counts starting again.
func (srv *Server) SetSubmitFaults(list []SubmitFault) {
	f := srv.faults
	f.mu.Lock()
	f.list, f.attempts = list, map[faultKey]int{}
	f.mu.Unlock()
}
