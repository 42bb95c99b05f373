package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/assistant"
	"github.com/chapar/chapar/pkg/config"
)

// fakeModel is an OpenAI-compatible server that streams the reply answer
// gives for the user's last words and records the prompts it got.
func fakeModel(t *testing.T, answer func(user string) string, prompts *[]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		*prompts = append(*prompts, req.Model+"|"+req.Messages[0].Content)
		w.Header().Set("Content-Type", "text/event-stream")
		b, _ := json.Marshal(answer(req.Messages[len(req.Messages)-1].Content))
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\ndata: [DONE]\n\n", b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

type agentReply struct {
	Thought        string `json:"thought"`
	ConversationID int64  `json:"conversation_id"`
	Parts          int    `json:"parts"`
	Model          string `json:"model"`
	Refused        bool   `json:"refused"`
	Notice         string `json:"notice"`
}

// TestAssistantWithRemoteModel: with ASSISTANT_URL set, the assistant offers
// free writing; /panel/agent answers through the remote model, checked (an
// ad gets the brand; a rewrite that adds a phone number is refused with the
// reason and the text stays), the conversation continues, and past the daily
// quota the answer is 429.
func TestAssistantWithRemoteModel(t *testing.T) {
	var prompts []string
	model := fakeModel(t, func(user string) string {
		if strings.Contains(user, "formal") {
			return "با سلام و احترام، تخفیف ۲۰ درصدی کفش تا جمعه! تماس: 09129998877"
		}
		return "تخفیف ۲۰ درصدی کفش تا جمعه!"
	}, &prompts)
	e := apitest.Start(t, func(c *config.Config) {
		c.AssistantURL, c.AssistantModel, c.AssistantDailyQuota = model.URL+"/v1", "qwen-test", 3
	})
	tok, acc := owner(t, e, "writer", "09121250000")
	if _, err := e.DB.Pool.Exec(context.Background(), `UPDATE accounts SET name = 'کفش آریا' WHERE id = $1`, acc); err != nil {
		t.Fatal(err)
	}
	var caps assistant.Capabilities
	e.Must(200, "GET", "/v1/api/panel/agent", nil, tok).Decode(t, &caps)
	if !caps.Remote || !caps.FreeWriting || caps.Model != "qwen-test" || caps.Notice != "" {
		t.Errorf("capabilities: %+v", caps)
	}
	var first agentReply
	r := e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": "یک تبلیغ برای تخفیف ۲۰ درصدی کفش تا جمعه بنویس", "parts": 1, "cancel11": true}, tok)
	r.Decode(t, &first)
	if r.Status != 200 || first.Model != "qwen-test" || first.ConversationID == 0 || first.Refused ||
		first.Thought != "کفش آریا\nتخفیف ۲۰ درصدی کفش تا جمعه!" || first.Parts != 1 {
		t.Fatalf("first: %d %s", r.Status, r.Raw)
	}
	if len(prompts) != 1 || !strings.HasPrefix(prompts[0], "qwen-test|") || !strings.Contains(prompts[0], "at most 1 SMS part") {
		t.Errorf("prompts: %q", prompts)
	}
	var second agentReply
	r = e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": first.Thought, "action": "formal", "conversation_id": first.ConversationID, "parts": 2}, tok)
	r.Decode(t, &second)
	if r.Status != 200 || second.ConversationID != first.ConversationID || !second.Refused || second.Thought != first.Thought ||
		!strings.Contains(second.Notice, "«09129998877» در متن شما نبود") {
		t.Fatalf("second: %d %s", r.Status, r.Raw)
	}
	r = e.Do("POST", "/v1/api/ticket/ai", map[string]any{"text": "کلید API که ساختم خطای ۴۰۱ می‌دهد"}, tok)
	if r.Status != 200 || !strings.Contains(string(r.Raw), `"sub_category":"کلید API"`) {
		t.Fatalf("ticket draft: %d %s", r.Status, r.Raw)
	}
	r = e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": "سلام"}, tok)
	if r.Status != 429 || r.Header.Get("Retry-After") == "" || !strings.Contains(r.Meta.Message, "سهمیه روزانه") {
		t.Errorf("past the quota: %d %s", r.Status, r.Raw)
	}
	r = e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": "", "parts": 5}, tok)
	if r.Status != 422 {
		t.Errorf("an empty request: %d %s", r.Status, r.Raw)
	}
}

// TestAssistantOffline: without a remote model the assistant says it only
// rewrites; a free request is 422 with that reason; a rewrite it cannot do
// well leaves the text with the reason.
func TestAssistantOffline(t *testing.T) {
	e := apitest.Start(t, nil)
	tok, _ := owner(t, e, "rewriter", "09121250001")
	var caps assistant.Capabilities
	e.Must(200, "GET", "/v1/api/panel/agent", nil, tok).Decode(t, &caps)
	if caps.Remote || caps.FreeWriting || caps.Model != "offline" || caps.Notice != assistant.MsgOfflineNotice || len(caps.Actions) != 4 {
		t.Errorf("capabilities: %+v", caps)
	}
	r := e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": "یک تبلیغ برای کفش بنویس"}, tok)
	if r.Status != 422 || r.Meta.Message != assistant.MsgFreeOffline {
		t.Errorf("free writing: %d %s", r.Status, r.Raw)
	}
	text := "سلام! امروز قهوه دوم رو مهمون ما باش. فقط تا ساعت ۱۸."
	var rep agentReply
	r = e.Do("POST", "/v1/api/panel/agent", map[string]any{"text": text, "action": "formal", "parts": 1}, tok)
	r.Decode(t, &rep)
	if r.Status != 200 || !rep.Refused || rep.Thought != text || !strings.Contains(rep.Notice, "محاوره‌ای") || rep.Model != "offline" {
		t.Errorf("formal of a colloquial text: %d %s", r.Status, r.Raw)
	}
}
