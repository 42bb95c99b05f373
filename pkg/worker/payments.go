package worker

import (
	"context"
	"time"

	"github.com/chapar/chapar/pkg/payment"
)

// AddPayments runs the payment settle task every period: payments pending past
// their window are resolved by asking the bank, and the money of failed payments
// the bank took is returned. Credits publish credit.changed. Several workers may
// run it at once: a payment settles once under its row lock.
func (w *Worker) AddPayments(s *payment.Service, every time.Duration) {
	s.OnMoney = w.onMoney
	w.AddLoop(func(ctx context.Context) { s.RunSettle(ctx, every) })
}
