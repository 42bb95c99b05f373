// Package assistant is the AI writing assistant of the message editor (issue #22,
// docs/assistant.md): a chat that writes and rewrites SMS texts within the part
// budget the user picked, and a draft of a support ticket from a free-text problem.
//
// Replies come from a Model: an OpenAI-compatible chat-completions server (OpenAI)
// when ASSISTANT_URL is set, otherwise the built-in rule-based Persian model
// (Offline). Whatever the model says passes the guardrails (guard.go) before it is
// shown: no link or phone number the user did not write, no link variable, the
// brand kept, and the text cut to the part budget. The Service keeps the
// conversations (30 days) and the per-account daily quota in PostgreSQL.
package assistant

import (
	"context"
	"errors"
)

// Action is a quick action of the panel (spec §4 AI assistant).
type Action string

// The quick actions, and Chat: a free request written by the user.
const (
	Chat     Action = ""
	Shorter  Action = "shorter"
	Longer   Action = "longer"
	Friendly Action = "friendly"
	Formal   Action = "formal"
	// Ad writes an advertisement for a topic ("write an ad for …").
	Ad Action = "ad"
)

// Message is one turn of a conversation as models see it: Role is "system",
// "user" or "assistant" (the chat-completions roles).
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Task is what the user asked, in the structured form the offline model reads
// (a remote model reads Messages, which say the same in words).
type Task struct {
	Action Action
	// Text is the text to rewrite (a quick action) or the topic of an ad.
	Text string
	// Request is the user's own words (for a free chat request).
	Request string
	// Brand is the account's name: an ad starts with it and a rewrite keeps it.
	Brand string
	// Parts is the part budget (1–3) and Cancel11 whether «لغو۱۱» is appended.
	Parts    int
	Cancel11 bool
	// LinkLength is the length a tracked link {link:ID} is sent at (0: as
	// written); the texts carry each placeholder padded to it (links.go).
	LinkLength int
}

// Prompt is one request to a model: the conversation so far (system prompt
// first) and the structured task.
type Prompt struct {
	Messages []Message
	Task     Task
}

// Model writes the assistant's reply to a prompt.
type Model interface {
	// Complete returns the reply text. It honours ctx's deadline.
	Complete(ctx context.Context, p Prompt) (string, error)
	// Name says which model answered ("offline" or the remote model's name).
	Name() string
}

// ErrModel wraps every failure of a remote model (HTTP status, bad answer).
var ErrModel = errors.New("assistant model")
