package payment

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/content"
)

// Open returns the payment service with every gateway built here: Zarinpal and SEP
// (their ids from the back office's settings), and the sandbox bank unless this is
// production with another default gateway (staff cannot turn a production system
// into one that credits without a payment). New payments go to the gateway staff
// chose, PAYMENT_GATEWAY until they do.
func Open(cfg config.Config, pool *pgxpool.Pool) *Service {
	offered := []string{GatewayZarinpal, GatewaySEP}
	if cfg.Env != config.EnvProduction || cfg.PaymentGateway == GatewaySandbox {
		offered = append([]string{GatewaySandbox}, offered...)
	}
	st := NewSettings(pool, cfg.TokenSecret, cfg.PaymentGateway, offered)
	zp := Zarinpal{BaseURL: cfg.PaymentZarinpalURL, Merchant: st.ZarinpalMerchant}
	sep := SEP{BaseURL: cfg.PaymentSEPURL, Terminal: st.SEPTerminal}
	var s *Service
	if offered[0] == GatewaySandbox {
		s = New(pool, NewSandbox(pool, cfg.TokenSecret, cfg.PaymentPendingTimeout))
		s.Add(zp)
	} else {
		s = New(pool, zp)
	}
	s.Add(sep)
	s.Choose, s.Settings = st.Active, st
	s.PublicURL = cfg.PaymentPublicURL
	s.PendingTimeout = cfg.PaymentPendingTimeout
	s.Offers = content.New(pool)
	return s
}
