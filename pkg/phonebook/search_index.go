package phonebook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
)

// EventIndexed tells an account's browsers that the contacts of one of its imports
// are all searchable by name ({"import_id"}).
const EventIndexed = "contacts.indexed"

// Indexing reports whether the account's name search is catching up with an
// import: some contacts an import added (or is adding) are not in contact_search
// yet, so a name search may miss them for a few seconds.
func (s *Service) Indexing(ctx context.Context, accountID int64) (bool, error) {
	var pending bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM contact_search_pending WHERE account_id = $1)`,
		accountID).Scan(&pending); err != nil {
		return false, fmt.Errorf("read search index state: %w", err)
	}
	return pending, nil
}

// ContactPage is a page of the contact list with whether the account's name
// search is still catching up with an import (Indexing).
type ContactPage struct {
	Rows     []Contact
	Total    int64
	Indexing bool
}

// ContactList is Contacts with Indexing: the contact list's page as the panel shows it.
func (s *Service) ContactList(ctx context.Context, accountID int64, f Filter) (ContactPage, error) {
	rows, total, err := s.Contacts(ctx, accountID, f)
	if err != nil {
		return ContactPage{}, err
	}
	indexing, err := s.Indexing(ctx, accountID)
	return ContactPage{Rows: rows, Total: total, Indexing: indexing}, err
}

// IndexImport adds the names of an import's contacts to contact_search, a batch at a
// time, after its cursor. Once the import has ended and every contact it added is
// in, the import is no longer pending (and EventIndexed is published). A run that
// finds the import taken by another run, or not pending, does nothing. It returns
// how many contacts it read.
func (s *Service) IndexImport(ctx context.Context, importID int64) (int, error) {
	total := 0
	for {
		n, more, err := s.indexImportBatch(ctx, importID)
		total += n
		if err != nil || !more {
			return total, err
		}
	}
}

// pendingImport is an import's row of contact_search_pending, with its status.
type pendingImport struct {
	id, accountID, phonebookID, after int64
	status                            string
}

// indexImportBatch indexes the next batch of an import's contacts in one
// transaction; more is true when there may be a full batch after it.
func (s *Service) indexImportBatch(ctx context.Context, importID int64) (n int, more bool, err error) {
	var p pendingImport
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT p.import_id, p.account_id, p.phonebook_id, p.after_id, i.status
			FROM contact_search_pending p JOIN contact_imports i ON i.id = p.import_id
			WHERE p.import_id = $1 FOR UPDATE OF p SKIP LOCKED`, importID).
			Scan(&p.id, &p.accountID, &p.phonebookID, &p.after, &p.status)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("lock pending import: %w", err)
		}
		n, more, err = s.indexRows(ctx, tx, p)
		return err
	})
	if err == nil && p.id != 0 && !more && p.status != ImportRunning && s.pub != nil {
		_ = s.pub.Publish(ctx, p.accountID, EventIndexed, map[string]int64{"import_id": p.id})
	}
	return n, more, err
}

// indexRows adds the names of the import's next batch of contacts and moves its
// cursor, or ends its pending row when the import has ended and no batch is left.
// The import's status was read before: an import already ended has committed every
// contact this batch can see.
func (s *Service) indexRows(ctx context.Context, tx pgx.Tx, p pendingImport) (n int, more bool, err error) {
	// More memory for the trigram index's pending entries, merged in larger runs
	// (about a tenth less work a name).
	if _, err := tx.Exec(ctx, `SET LOCAL work_mem = '32MB'`); err != nil {
		return 0, false, fmt.Errorf("index work memory: %w", err)
	}
	var last int64
	if err := tx.QueryRow(ctx, `WITH b AS (SELECT id, account_id, name FROM contacts
			WHERE phonebook_id = $1 AND id > $2 AND import_id = $3 ORDER BY id LIMIT $4),
		ins AS (INSERT INTO contact_search (contact_id, account_id, phonebook_id, name)
			SELECT id, account_id, $1, name FROM b WHERE name <> '' ON CONFLICT (contact_id) DO NOTHING)
		SELECT count(*), coalesce(max(id), $2) FROM b`, p.phonebookID, p.after, p.id, s.indexBatch).Scan(&n, &last); err != nil {
		return 0, false, fmt.Errorf("index import contacts: %w", err)
	}
	more = n == s.indexBatch
	if !more && p.status != ImportRunning {
		_, err = tx.Exec(ctx, `DELETE FROM contact_search_pending WHERE import_id = $1`, p.id)
	} else {
		_, err = tx.Exec(ctx, `UPDATE contact_search_pending SET after_id = $2 WHERE import_id = $1`, p.id, last)
	}
	if err != nil {
		return 0, false, fmt.Errorf("move search cursor: %w", err)
	}
	return n, more, nil
}

// HandleSearchIndex is the worker's handler of jobs.TypeContactSearch.
func (s *Service) HandleSearchIndex(ctx context.Context, t *asynq.Task) error {
	var p jobs.ContactImport
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return fmt.Errorf("search index payload: %v: %w", err, asynq.SkipRetry)
	}
	_, err := s.IndexImport(ctx, p.ImportID)
	return err
}

// QueuePendingIndexes enqueues the search-index task of every import still pending
// (running ones too, so that search follows a long import), as the worker's
// scheduler does every few seconds; an import whose task is queued or running is
// left alone. It returns how many it enqueued.
func (s *Service) QueuePendingIndexes(ctx context.Context) (int, error) {
	var ids []int64
	if err := s.pool.QueryRow(ctx, `SELECT coalesce(array_agg(import_id), '{}') FROM (SELECT import_id
		FROM contact_search_pending ORDER BY import_id LIMIT 100) x`).Scan(&ids); err != nil {
		return 0, fmt.Errorf("pending search indexes: %w", err)
	}
	n, err := jobs.Requeue(ctx, s.queue, ids, jobs.NewContactSearch)
	if err != nil {
		return n, fmt.Errorf("pending search indexes: %w", err)
	}
	return n, nil
}

// queueIndex asks the worker to index an import's contacts now that it has ended
// (best effort: the scheduler's QueuePendingIndexes catches up within seconds).
func (s *Service) queueIndex(ctx context.Context, importID int64) {
	if s.queue != nil {
		_, _ = s.queue.EnqueueContext(ctx, jobs.NewContactSearch(importID))
	}
}
