package payment

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/chapar/chapar/pkg/apperr"
)

// Gateway names as staff choose them and as the payments table records them.
const (
	GatewaySandbox  = "sandbox"
	GatewayZarinpal = "zarinpal"
	GatewaySEP      = "sep"
)

// GatewayParam is the callback URL's query parameter naming the payment's gateway,
// so one callback route serves every gateway.
const GatewayParam = "gateway"

// MsgGatewayDown is the answer when the bank does not open a payment session.
const MsgGatewayDown = "درگاه پرداخت در حال حاضر پاسخ نمی‌دهد؛ لطفا چند دقیقه دیگر دوباره تلاش کنید"

// Add makes another gateway known to the service: its payments are called back,
// settled and returned through it, and Choose may name it for new payments.
func (s *Service) Add(gw Gateway) { s.gws[gw.Name()] = gw }

// Gateways are the names of the gateways the service knows, sorted.
func (s *Service) Gateways() []string {
	out := make([]string, 0, len(s.gws))
	for n := range s.gws {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Sandbox is the sandbox gateway when the service has one.
func (s *Service) Sandbox() (SandboxGateway, bool) {
	for _, gw := range s.gws {
		if sb, ok := gw.(SandboxGateway); ok {
			return sb, true
		}
	}
	return SandboxGateway{}, false
}

// active is the gateway of a new payment: the one Choose names, else the default.
func (s *Service) active(ctx context.Context) (Gateway, error) {
	if s.Choose == nil {
		return s.gw, nil
	}
	name, err := s.Choose(ctx)
	if err != nil {
		return nil, fmt.Errorf("active gateway: %w", err)
	}
	gw, ok := s.gws[name]
	if !ok {
		return nil, unavailable(fmt.Errorf("active gateway %q is not configured here", name))
	}
	return gw, nil
}

// gatewayOf is the gateway a callback names, else the default one (a callback
// address without the parameter), and the callback's fields. A bank that appends
// its fields with a second «?» (…?gateway=sep?Authority=…) is read as if it had
// used «&».
func (s *Service) gatewayOf(q url.Values) (Gateway, url.Values) {
	if name, rest, ok := strings.Cut(q.Get(GatewayParam), "?"); ok {
		more, err := url.ParseQuery(rest)
		if err == nil {
			q = cloneValues(q)
			q.Set(GatewayParam, name)
			for k, v := range more {
				q[k] = append(q[k], v...)
			}
		}
	}
	if gw, ok := s.gws[q.Get(GatewayParam)]; ok {
		return gw, q
	}
	return s.gw, q
}

// cloneValues is a copy of q.
func cloneValues(q url.Values) url.Values {
	out := make(url.Values, len(q))
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// callbackURL is the address the bank sends the payer back to, naming the gateway.
func (s *Service) callbackURL(gw Gateway) string {
	return s.PublicURL + CallbackPath + "?" + url.Values{GatewayParam: {gw.Name()}}.Encode()
}

// unavailable wraps a bank failure as a 503 with the Persian message.
func unavailable(err error) error {
	return &apperr.Error{Kind: apperr.Unavailable, Message: MsgGatewayDown, Err: err}
}
