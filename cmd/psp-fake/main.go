// Command psp-fake serves the fakes of Zarinpal and SEP (package pkg/payment/pspfake)
// for a demo of the real gateways without a bank: point the API at them with
// PAYMENT_ZARINPAL_URL=http://127.0.0.1:2791 and PAYMENT_SEP_URL=http://127.0.0.1:2792,
// then, in the back office's «درگاه پرداخت», enter the same merchant and terminal ids
// and choose the gateway. The payer gets a small Persian page with «پرداخت» and
// «انصراف». Nothing is kept: sessions live in memory until the process ends.
//
//	-zarinpal   listen address of the Zarinpal fake, 127.0.0.1:2791
//	-sep        listen address of the SEP fake, 127.0.0.1:2792
//	-merchant   the Zarinpal merchant id accepted
//	-terminal   the SEP terminal id accepted
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/chapar/chapar/pkg/payment/pspfake"
)

func main() {
	zpAddr := flag.String("zarinpal", "127.0.0.1:2791", "listen address of the Zarinpal fake")
	sepAddr := flag.String("sep", "127.0.0.1:2792", "listen address of the SEP fake")
	merchant := flag.String("merchant", "00000000-0000-0000-0000-000000000000", "the Zarinpal merchant id accepted")
	terminal := flag.String("terminal", "12345678", "the SEP terminal id accepted")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	servers := []*http.Server{
		{Addr: *zpAddr, Handler: pspfake.NewZarinpal(*merchant), ReadHeaderTimeout: 10 * time.Second},
		{Addr: *sepAddr, Handler: pspfake.NewSEP(*terminal), ReadHeaderTimeout: 10 * time.Second},
	}
	errs := make(chan error, len(servers))
	for _, s := range servers {
		go func() {
			slog.Info("psp fake listening", "addr", s.Addr)
			errs <- s.ListenAndServe()
		}()
	}
	select {
	case err := <-errs:
		slog.Error("psp fake stopped", "err", err)
		os.Exit(1)
	case <-ctx.Done():
	}
	for _, s := range servers {
		if err := s.Shutdown(context.Background()); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Warn("psp fake shutdown", "err", err)
		}
	}
}
