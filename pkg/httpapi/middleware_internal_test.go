package httpapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
)

// TestFinishWritesOutlivesTheClient: a change whose client goes away mid-request
// keeps a live context until it ends; a read stops with its client.
func TestFinishWritesOutlivesTheClient(t *testing.T) {
	gin.SetMode(gin.TestMode)
	for _, tc := range []struct {
		method   string
		wantLive bool
	}{{http.MethodPost, true}, {http.MethodDelete, true}, {http.MethodGet, false}} {
		t.Run(tc.method, func(t *testing.T) {
			started, result := make(chan struct{}), make(chan error, 1)
			r := gin.New()
			r.Use(func(c *gin.Context) { c.Set("client", c.Request.Context()); c.Next() }, finishWrites())
			r.Handle(tc.method, "/x", func(c *gin.Context) {
				close(started)
				<-c.MustGet("client").(context.Context).Done() // the client has gone
				result <- c.Request.Context().Err()
			})
			srv := httptest.NewServer(r)
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, tc.method, srv.URL+"/x", nil)
			go func() { <-started; cancel() }()
			if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.Canceled) {
				t.Fatalf("client: %v", err)
			}
			err := <-result
			if tc.wantLive && err != nil {
				t.Fatalf("the change's context ended with its client: %v", err)
			}
			if !tc.wantLive && err == nil {
				t.Fatal("the read's context outlived its client")
			}
		})
	}
}
