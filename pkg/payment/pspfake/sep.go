package pspfake

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// SEP transaction states, as the fake keeps them.
const (
	SEPCreated  = "created"
	SEPPaid     = "paid"
	SEPCanceled = "canceled"
	SEPVerified = "verified"
	SEPReversed = "reversed"
)

// sepTxn is one SEP payment.
type sepTxn struct {
	amount, paid     int64
	resNum, redirect string
	state            string
	refNum, rrn      string
}

// SEP fakes Saman Electronic Payment's token flow: /onlinepg/onlinepg (token),
// /OnlinePG/SendToken (the payment page, which posts the result form to the
// merchant), and /verifyTxnRandomSessionkey/ipg/{VerifyTransaction,ReverseTransaction}.
type SEP struct {
	switches
	// Terminal is the only terminal id the fake accepts.
	Terminal string
	mu       sync.Mutex
	byToken  map[string]*sepTxn
	byRef    map[string]*sepTxn
}

// NewSEP returns a fake SEP for one terminal.
func NewSEP(terminal string) *SEP {
	return &SEP{Terminal: terminal, byToken: map[string]*sepTxn{}, byRef: map[string]*sepTxn{}}
}

// ServeHTTP implements http.Handler.
func (g *SEP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/OnlinePG/SendToken":
		g.sendToken(w, r)
		return
	case "/onlinepg/onlinepg", "/verifyTxnRandomSessionkey/ipg/VerifyTransaction", "/verifyTxnRandomSessionkey/ipg/ReverseTransaction":
	default:
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost || !g.enter(w, r) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
		}
		return
	}
	var in map[string]any
	if err := readJSON(r, &in); err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"status": -1, "errorCode": "5", "errorDesc": "bad request"})
		return
	}
	switch r.URL.Path {
	case "/onlinepg/onlinepg":
		writeJSON(w, http.StatusOK, g.token(in))
	case "/verifyTxnRandomSessionkey/ipg/VerifyTransaction":
		writeJSON(w, http.StatusOK, g.verify(in))
	default:
		writeJSON(w, http.StatusOK, g.reverse(in))
	}
}

func (g *SEP) token(in map[string]any) any {
	amount, _ := in["Amount"].(float64)
	switch {
	case str(in["action"]) != "token":
		return map[string]any{"status": -1, "errorCode": "5", "errorDesc": "action is not token"}
	case str(in["TerminalId"]) != g.Terminal:
		return map[string]any{"status": -1, "errorCode": "-105", "errorDesc": "terminal not found"}
	case amount <= 0 || str(in["ResNum"]) == "" || str(in["RedirectUrl"]) == "":
		return map[string]any{"status": -1, "errorCode": "5", "errorDesc": "invalid parameters"}
	}
	tok := randomHex(32)
	g.mu.Lock()
	g.byToken[tok] = &sepTxn{amount: int64(amount), resNum: str(in["ResNum"]), redirect: str(in["RedirectUrl"]), state: SEPCreated}
	g.mu.Unlock()
	return map[string]any{"status": 1, "token": tok}
}

// answer is a verify or reverse answer for t with a result code.
func (g *SEP) answer(t *sepTxn, code int, desc string) any {
	a := map[string]any{"ResultCode": code, "ResultDescription": desc, "Success": code == 0, "TransactionDetail": nil}
	if t != nil {
		n, _ := strconv.ParseInt(g.Terminal, 10, 64)
		a["TransactionDetail"] = map[string]any{"RRN": t.rrn, "RefNum": t.refNum, "MaskedPan": "621986****8080",
			"HashedPan": randomHex(64), "TerminalNumber": n, "OrginalAmount": t.paid, "AffectiveAmount": t.paid,
			"StraceDate": "2024-01-01 10:00:00", "StraceNo": randomDigits(6)}
	}
	return a
}

// lookup is the transaction of a verify or reverse request, or the refusal.
func (g *SEP) lookup(in map[string]any) (*sepTxn, any) {
	n, _ := in["TerminalNumber"].(float64)
	if strconv.FormatInt(int64(n), 10) != g.Terminal {
		return nil, g.answer(nil, -105, "ترمینال یافت نشد")
	}
	t, ok := g.byRef[str(in["RefNum"])]
	if !ok {
		return nil, g.answer(nil, -2, "تراکنش یافت نشد")
	}
	return t, nil
}

func (g *SEP) verify(in map[string]any) any {
	if g.current().VerifyFail {
		return g.answer(nil, -1, "خطای داخلی")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	t, refused := g.lookup(in)
	switch {
	case refused != nil:
		return refused
	case t.state == SEPVerified:
		return g.answer(t, 2, "درخواست تکراری می باشد")
	case t.state == SEPReversed:
		return g.answer(t, 5, "تراکنش برگشت خورده است")
	}
	t.state = SEPVerified
	return g.answer(t, 0, "عملیات با موفقیت انجام شد")
}

func (g *SEP) reverse(in map[string]any) any {
	if g.current().ReverseFail {
		return g.answer(nil, -1, "خطای داخلی")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	t, refused := g.lookup(in)
	switch {
	case refused != nil:
		return refused
	case t.state == SEPReversed:
		return g.answer(t, 5, "تراکنش پیش‌تر برگشت خورده است")
	}
	t.state = SEPReversed
	return g.answer(t, 0, "عملیات با موفقیت انجام شد")
}

// State is a transaction's state by its token (empty when unknown).
func (g *SEP) State(token string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t, ok := g.byToken[token]; ok {
		return t.state
	}
	return ""
}

// Pay is the payer at SendToken: paid (with WrongAmount, 1,000 rials less is
// taken) or cancelled. It returns the merchant's RedirectUrl and the form SEP
// posts to it.
func (g *SEP) Pay(token string, ok bool) (string, url.Values, error) {
	wrong := g.current().WrongAmount
	g.mu.Lock()
	defer g.mu.Unlock()
	t, found := g.byToken[token]
	if !found {
		return "", nil, ErrUnknownSession
	}
	if t.state == SEPCreated && ok {
		t.state, t.paid, t.refNum, t.rrn = SEPPaid, t.amount, randomHex(20), randomDigits(12)
		if wrong {
			t.paid -= 1000
		}
		g.byRef[t.refNum] = t
	} else if t.state == SEPCreated {
		t.state = SEPCanceled
	}
	f := url.Values{"MID": {g.Terminal}, "TerminalId": {g.Terminal}, "ResNum": {t.resNum}, "Token": {token},
		"Amount": {strconv.FormatInt(t.amount, 10)}}
	if t.state == SEPCanceled {
		f.Set("State", "CanceledByUser")
		f.Set("Status", "1")
		return t.redirect, f, nil
	}
	f.Set("State", "OK")
	f.Set("Status", "2")
	for k, v := range map[string]string{"RefNum": t.refNum, "RRN": t.rrn, "TraceNo": randomDigits(6),
		"SecurePan": "621986******8080", "HashedCardNumber": randomHex(64), "AffectiveAmount": strconv.FormatInt(t.paid, 10)} {
		f.Set(k, v)
	}
	return t.redirect, f, nil
}

var postBack = template.Must(template.New("post").Parse(`<!doctype html><html lang="fa" dir="rtl"><head><meta charset="utf-8">
<title>بازگشت به پذیرنده</title></head><body><form method="post" action="{{.To}}">{{range $k, $v := .Form}}<input type="hidden" name="{{$k}}" value="{{index $v 0}}">{{end}}
<button>بازگشت به سایت پذیرنده</button></form></body></html>`))

// sendToken is the payment page: GET (or SEP's POST with the token) shows it; a
// POST with the payer's choice answers the form that posts the result back.
func (g *SEP) sendToken(w http.ResponseWriter, r *http.Request) {
	tok := r.FormValue("token")
	g.mu.Lock()
	t, ok := g.byToken[tok]
	var amount int64
	if ok {
		amount = t.amount
	}
	g.mu.Unlock()
	servePage(w, r, ok, page{Title: "سامان", Amount: amount, Hidden: map[string]string{"token": tok}}, func(paid bool) {
		to, form, err := g.Pay(tok, paid)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = postBack.Execute(w, map[string]any{"To": to, "Form": form})
	})
}
