package payment

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/content"
)

// Open returns the payment service of the configured gateway (PAYMENT_GATEWAY;
// pkg/config accepts only the gateways built here).
func Open(cfg config.Config, pool *pgxpool.Pool) *Service {
	gw := NewSandbox(pool, cfg.TokenSecret, cfg.PaymentPendingTimeout)
	s := New(pool, gw)
	s.PublicURL = cfg.PaymentPublicURL
	s.PendingTimeout = cfg.PaymentPendingTimeout
	s.Offers = content.New(pool)
	return s
}
