package db_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/internal/testing/testenv"
)

// previousRelease reads deploy/previous-release: the last landed release's commit
// and the newest migration number it has (the baseline).
func previousRelease(t *testing.T) (commit string, baseline int) {
	t.Helper()
	f, err := os.Open("../../../deploy/previous-release")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		switch {
		case !ok || strings.HasPrefix(k, "#"):
		case k == "commit":
			commit = v
		case k == "migration":
			baseline, err = strconv.Atoi(v)
		}
	}
	if err != nil || commit == "" || baseline == 0 {
		t.Fatalf("deploy/previous-release: commit %q, migration %d: %v", commit, baseline, err)
	}
	return commit, baseline
}

// finding is one refused step of a migration: contract steps may land in a file
// marked `-- migrate: contract OBJECT…`, the others never.
type finding struct {
	contract bool
	msg      string
}

// schemaState is what the migrations after the baseline created so far: steps on
// those objects cannot disturb the previous release, which never uses them.
type schemaState struct {
	tables, indexes, objects map[string]bool
	notValid, validated      map[string]bool
}

func newSchemaState() *schemaState {
	return &schemaState{tables: map[string]bool{}, indexes: map[string]bool{}, objects: map[string]bool{},
		notValid: map[string]bool{}, validated: map[string]bool{}}
}

var (
	sqlComment   = regexp.MustCompile(`--[^\n]*`)
	sqlSpace     = regexp.MustCompile(`\s+`)
	createTable  = regexp.MustCompile(`^create (?:unlogged )?table (?:if not exists )?([\w.]+)`)
	createObject = regexp.MustCompile(`^create (?:or replace )?(?:function|view|materialized view|type|sequence|trigger) (?:if not exists )?([\w.]+)`)
	createIndex  = regexp.MustCompile(`create (?:unique )?index (concurrently )?(if not exists )?([\w.]+ )?on (?:only )?([\w.%]+)`)
	dropIndex    = regexp.MustCompile(`drop index (concurrently )?(if exists )?([\w.]+)`)
	dropObject   = regexp.MustCompile(`drop (?:table|view|materialized view|function|type|sequence|schema|trigger) (?:if exists )?([\w.]+)`)
	alterTable   = regexp.MustCompile(`^alter table (?:if exists )?(?:only )?([\w.]+) (.*)$`)
	noTxAllowed  = regexp.MustCompile(`^(create (unique )?index concurrently if not exists |drop index concurrently if exists |alter table [\w.]+ validate constraint \w+$)`)
)

// normalize strips comments, quotes and case, and collapses the spaces.
func normalize(sql string) string {
	s := sqlComment.ReplaceAllString(sql, "")
	s = strings.ReplaceAll(strings.ToLower(s), `"`, "")
	return strings.TrimSpace(sqlSpace.ReplaceAllString(s, " "))
}

// checkExpand lists the steps of one migration's up file that the previous release,
// still serving, could trip over: a lock that stops its writes or a change of what
// it reads and writes.
func checkExpand(up string, st *schemaState) []finding {
	noTx := db.NoTransaction(up)
	text := normalize(up)
	var out []finding
	for _, s := range strings.Split(text, ";") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if noTx && (strings.Contains(s, "$$") || !noTxAllowed.MatchString(s)) {
			out = append(out, finding{msg: "a no-transaction file holds only CREATE INDEX CONCURRENTLY IF NOT EXISTS, " +
				"DROP INDEX CONCURRENTLY IF EXISTS and VALIDATE CONSTRAINT: " + s})
			continue
		}
		if m := createTable.FindStringSubmatch(s); m != nil {
			st.tables[m[1]] = true
		}
		if m := createObject.FindStringSubmatch(s); m != nil {
			st.objects[m[1]] = true
		}
		out = append(out, checkIndexes(s, noTx, st)...)
		out = append(out, checkDrops(s, st)...)
		if m := alterTable.FindStringSubmatch(s); m != nil {
			out = append(out, checkAlterTable(m[1], m[2], text, st)...)
		} else if strings.Contains(" "+s+" ", " rename ") {
			out = append(out, finding{contract: true, msg: "a rename: " + s})
		}
	}
	return out
}

// checkIndexes: an index on a table the previous release uses is built or dropped
// CONCURRENTLY (a plain build blocks the table's writes for its whole length), in a
// no-transaction file and idempotently.
func checkIndexes(s string, noTx bool, st *schemaState) []finding {
	var out []finding
	for _, m := range createIndex.FindAllStringSubmatch(s, -1) {
		name, table := strings.TrimSpace(m[3]), m[4]
		switch {
		case st.tables[table]:
			st.indexes[name] = true
		case m[1] == "":
			out = append(out, finding{msg: "a plain CREATE INDEX on the existing table " + table +
				": build it CONCURRENTLY in a no-transaction file"})
		case !noTx || m[2] == "":
			out = append(out, finding{msg: "CREATE INDEX CONCURRENTLY needs IF NOT EXISTS in a no-transaction file: " + s})
		}
	}
	for _, m := range dropIndex.FindAllStringSubmatch(s, -1) {
		switch {
		case st.indexes[m[3]]:
		case m[1] == "":
			out = append(out, finding{msg: "a plain DROP INDEX " + m[3] + ": drop it CONCURRENTLY in a no-transaction file"})
		case !noTx || m[2] == "":
			out = append(out, finding{msg: "DROP INDEX CONCURRENTLY needs IF EXISTS in a no-transaction file: " + s})
		}
	}
	return out
}

// checkDrops: dropping a table, view, function or type the previous release may
// use is a contract step.
func checkDrops(s string, st *schemaState) []finding {
	var out []finding
	for _, m := range dropObject.FindAllStringSubmatch(s, -1) {
		if name := m[1]; !st.tables[name] && !st.objects[name] {
			out = append(out, finding{contract: true, msg: "drops " + name + ": " + s})
		}
	}
	return out
}

var (
	dropColumn     = regexp.MustCompile(`\bdrop column\b`)
	renameAny      = regexp.MustCompile(`\brename\b`)
	columnType     = regexp.MustCompile(`\balter column \w+ (?:set data )?type\b`)
	setNotNull     = regexp.MustCompile(`\balter column \w+ set not null\b`)
	addColumn      = regexp.MustCompile(`\badd column (?:if not exists )?\w+ ([^,]*)`)
	dropConstraint = regexp.MustCompile(`\bdrop constraint (if exists )?(\w+)`)
	addConstraint  = regexp.MustCompile(`\badd constraint (\w+) (check|foreign key|unique|primary key|exclude)\b`)
	validate       = regexp.MustCompile(`\bvalidate constraint (\w+)`)
)

// checkAlterTable checks the actions of an ALTER TABLE on a table the previous
// release uses. Widening a CHECK (DROP CONSTRAINT IF EXISTS, ADD CONSTRAINT … NOT
// VALID, VALIDATE CONSTRAINT later) is an expand step.
func checkAlterTable(table, actions, file string, st *schemaState) []finding {
	for _, m := range validate.FindAllStringSubmatch(actions, -1) {
		st.validated[m[1]] = true
	}
	if st.tables[table] {
		return nil
	}
	var out []finding
	contract := func(what string) { out = append(out, finding{contract: true, msg: what + " on " + table}) }
	if dropColumn.MatchString(actions) {
		contract("DROP COLUMN")
	}
	if renameAny.MatchString(actions) {
		contract("a RENAME")
	}
	if columnType.MatchString(actions) {
		contract("a column's TYPE change")
	}
	if setNotNull.MatchString(actions) {
		contract("SET NOT NULL (first a CHECK (… IS NOT NULL) NOT VALID, validated)")
	}
	for _, m := range addColumn.FindAllStringSubmatch(actions, -1) {
		if strings.Contains(m[1], "not null") && !strings.Contains(m[1], "default") {
			out = append(out, finding{msg: "ADD COLUMN … NOT NULL without a DEFAULT on " + table +
				": the previous release's inserts do not fill it"})
		}
	}
	for _, m := range dropConstraint.FindAllStringSubmatch(actions, -1) {
		readd := regexp.MustCompile(`\badd constraint ` + m[2] + ` check \(.*\) not valid\b`)
		if m[1] == "" || !readd.MatchString(file) {
			contract("DROP CONSTRAINT " + m[2] + " (widening a CHECK is DROP CONSTRAINT IF EXISTS and ADD CONSTRAINT … NOT VALID)")
		}
	}
	out = append(out, checkAddConstraint(table, actions, st)...)
	return out
}

// checkAddConstraint: a new CHECK or FOREIGN KEY on a table in use is added NOT
// VALID (validated later, without blocking writes); a UNIQUE or PRIMARY KEY is added
// USING INDEX, one built CONCURRENTLY before.
func checkAddConstraint(table, actions string, st *schemaState) []finding {
	var out []finding
	for _, m := range addConstraint.FindAllStringSubmatch(actions, -1) {
		switch m[2] {
		case "check", "foreign key":
			if !strings.Contains(actions, "not valid") {
				out = append(out, finding{msg: "ADD CONSTRAINT " + m[1] + " on " + table + " without NOT VALID"})
			} else {
				st.notValid[m[1]] = true
			}
		default:
			if !strings.Contains(actions, "using index") {
				out = append(out, finding{msg: "ADD CONSTRAINT " + m[1] + " " + m[2] + " on " + table + " builds an index under lock"})
			}
		}
	}
	return out
}

// contractObjects returns the objects a `-- migrate: contract A B` file names.
func contractObjects(up string) (objects []string, marked bool) {
	for _, m := range db.Markers(up) {
		if rest, ok := strings.CutPrefix(m, "contract"); ok {
			return strings.Fields(rest), true
		}
	}
	return nil, false
}

// previousReleaseNames reports whether the previous release's code (outside its
// migrations, docs and tests, which a running release does not execute) names the
// object: its last dotted part, as a whole word.
func previousReleaseNames(t *testing.T, commit, object string) bool {
	t.Helper()
	word := object[strings.LastIndex(object, ".")+1:]
	out, err := exec.Command("git", "grep", "-q", "-w", "-F", "-i", "-e", word, commit, "--",
		":(top)", ":(top,exclude)migrations", ":(top,exclude)docs", ":(top,exclude,glob)**/*_test.go",
		":(top,exclude,glob)**/*.test.ts", ":(top,exclude,glob)**/*.test.tsx", ":(top,exclude)web/e2e").CombinedOutput()
	if err == nil {
		return true
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(out) == 0 {
		return false
	}
	t.Fatalf("git grep %s in the previous release %s: %v %s", word, commit, err, out)
	return true
}

// TestMigrationsExpandContract holds every migration after the previous release's
// (deploy/previous-release) to the expand rules of docs/upgrades.md: the previous
// release keeps serving while they run, so none may block its writes for long or
// change what it reads and writes. Contract steps wait for a later release, in a
// file marked `-- migrate: contract OBJECT…` whose objects the previous release no
// longer names.
func TestMigrationsExpandContract(t *testing.T) {
	commit, baseline := previousRelease(t)
	migs, err := db.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	st := newSchemaState()
	checked := 0
	for _, m := range migs {
		if m.Version <= baseline {
			continue
		}
		checked++
		for _, problem := range migrationProblems(t, m, commit, st) {
			t.Errorf("%04d_%s: %s", m.Version, m.Name, problem)
		}
	}
	for name := range st.notValid {
		if !st.validated[name] {
			t.Errorf("constraint %s is added NOT VALID and never validated (VALIDATE CONSTRAINT in a no-transaction file)", name)
		}
	}
	t.Logf("%d migrations after the previous release's %04d checked", checked, baseline)
}

// migrationProblems lists what a migration's up file may not do, given its markers.
func migrationProblems(t *testing.T, m db.Migration, commit string, st *schemaState) []string {
	t.Helper()
	objects, contract := contractObjects(m.Up)
	var out []string
	if contract && len(objects) == 0 {
		out = append(out, "a contract file names the objects it removes or changes (-- migrate: contract table.column …)")
	}
	for _, o := range objects {
		if previousReleaseNames(t, commit, o) {
			out = append(out, fmt.Sprintf("contract step on %s, which the previous release %.12s still names", o, commit))
		}
	}
	for _, f := range checkExpand(m.Up, st) {
		if !f.contract || !contract {
			out = append(out, f.msg)
		}
	}
	return out
}

// TestExpandRules runs the checker on examples of each rule.
func TestExpandRules(t *testing.T) {
	noTx := db.NoTransactionMarker + "\n"
	cases := []struct {
		sql      string
		refused  bool
		contract bool
	}{
		{"ALTER TABLE users ADD COLUMN nick text NOT NULL DEFAULT ''", false, false},
		{"ALTER TABLE users ADD COLUMN nick text NOT NULL", true, false},
		{"ALTER TABLE users DROP COLUMN nick", true, true},
		{"ALTER TABLE users RENAME COLUMN nick TO alias", true, true},
		{"ALTER TABLE users ALTER COLUMN nick TYPE varchar(20)", true, true},
		{"ALTER TABLE users ALTER COLUMN nick SET NOT NULL", true, true},
		{"DROP TABLE sessions", true, true},
		{"CREATE INDEX users_nick_idx ON users (nick)", true, false},
		{"DROP INDEX users_nick_idx", true, false},
		{"CREATE INDEX CONCURRENTLY users_nick_idx ON users (nick)", true, false},
		{noTx + "CREATE INDEX CONCURRENTLY IF NOT EXISTS users_nick_idx ON users (nick);", false, false},
		{noTx + "DROP INDEX CONCURRENTLY IF EXISTS users_nick_idx;", false, false},
		{noTx + "UPDATE users SET nick = '';", true, false},
		{"CREATE TABLE t (id int); CREATE INDEX t_idx ON t (id); DROP INDEX t_idx; DROP TABLE t", false, false},
		{"ALTER TABLE users DROP CONSTRAINT users_status_check;" +
			"ALTER TABLE users ADD CONSTRAINT users_status_check CHECK (status IN ('a', 'b'))", true, false},
		{"ALTER TABLE users DROP CONSTRAINT IF EXISTS users_status_check;" +
			"ALTER TABLE users ADD CONSTRAINT users_status_check CHECK (status IN ('a', 'b')) NOT VALID", false, false},
		{"ALTER TABLE users ADD CONSTRAINT users_nick_key UNIQUE (nick)", true, false},
	}
	for _, c := range cases {
		fs := checkExpand(c.sql, newSchemaState())
		contract := len(fs) > 0
		for _, f := range fs {
			contract = contract && f.contract
		}
		if (len(fs) > 0) != c.refused || contract != c.contract {
			t.Errorf("%q: findings %v, want refused %v (contract %v)", c.sql, fs, c.refused, c.contract)
		}
	}
}

// TestNoTransactionMigrationsRerun applies the migrations, forgets every
// no-transaction one after the previous release, and applies them again: they are
// idempotent, as a file interrupted half way, or a database that ran an index's
// earlier plain form, needs.
func TestNoTransactionMigrationsRerun(t *testing.T) {
	ctx := context.Background()
	_, baseline := previousRelease(t)
	d := testenv.Postgres(t)
	migs, _ := db.Migrations()
	var again []int
	for _, m := range migs {
		if m.Version > baseline && db.NoTransaction(m.Up) {
			again = append(again, m.Version)
		}
	}
	if len(again) == 0 {
		t.Skip("no no-transaction migration after the previous release")
	}
	if _, err := d.Pool.Exec(ctx, `DELETE FROM schema_migrations WHERE version = ANY($1)`, again); err != nil {
		t.Fatal(err)
	}
	if n, err := db.MigrateUp(ctx, d.Pool); err != nil || n != len(again) {
		t.Fatalf("re-applied %d of %v: %v", n, again, err)
	}
}

// TestInvalidIndexRebuilt: a concurrent build that failed leaves an INVALID index;
// the migration that builds it drops it and builds it again, rather than keeping the
// broken one (IF NOT EXISTS alone would).
func TestInvalidIndexRebuilt(t *testing.T) {
	ctx := context.Background()
	d := testenv.Postgres(t)
	_, err := d.Pool.Exec(ctx, `INSERT INTO accounts (name) VALUES ('index probe');
		INSERT INTO users (account_id, username, password_hash)
			SELECT id, 'index-probe-' || id, 'x' FROM accounts WHERE name = 'index probe';
		DROP INDEX users_mobile_idx`)
	if err != nil {
		t.Fatal(err)
	}
	// A build that fails on the table's row (division by zero) leaves the index INVALID.
	if _, err := d.Pool.Exec(ctx, `CREATE INDEX CONCURRENTLY users_mobile_idx ON users ((1 / (id - id)))`); err == nil {
		t.Fatal("the failing build succeeded")
	}
	valid := func() (ok bool, def string) {
		err := d.Pool.QueryRow(ctx, `SELECT i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i
			WHERE i.indexrelid = 'users_mobile_idx'::regclass`).Scan(&ok, &def)
		if err != nil {
			t.Fatal(err)
		}
		return ok, def
	}
	if ok, _ := valid(); ok {
		t.Fatal("the failed build left a valid index")
	}
	if _, err := d.Pool.Exec(ctx, `DELETE FROM schema_migrations WHERE version = 176`); err != nil {
		t.Fatal(err)
	}
	if n, err := db.MigrateUp(ctx, d.Pool); err != nil || n != 1 {
		t.Fatalf("migrate up: %d %v", n, err)
	}
	if ok, def := valid(); !ok || !strings.Contains(def, "(mobile)") {
		t.Fatalf("users_mobile_idx valid %v: %s", ok, def)
	}
}

// TestContractFiles: a contract file may drop what the previous release no longer
// names, and nothing it still names; it keeps the lock rules.
func TestContractFiles(t *testing.T) {
	commit, _ := previousRelease(t)
	cases := []struct {
		up       string
		problems int
	}{
		{db.ContractMarker + " sends.legacy_flag_nowhere\nALTER TABLE sends DROP COLUMN legacy_flag_nowhere;", 0},
		{db.ContractMarker + " sends.quote\nALTER TABLE sends DROP COLUMN quote;", 1},
		{db.ContractMarker + "\nALTER TABLE sends DROP COLUMN legacy_flag_nowhere;", 1},
		{db.ContractMarker + " sends.legacy_flag_nowhere\nCREATE INDEX sends_x ON sends (id);", 1},
		{"ALTER TABLE sends DROP COLUMN legacy_flag_nowhere;", 1},
	}
	for _, c := range cases {
		got := migrationProblems(t, db.Migration{Version: 9999, Name: "contract", Up: c.up}, commit, newSchemaState())
		if len(got) != c.problems {
			t.Errorf("%q: problems %q, want %d", c.up, got, c.problems)
		}
	}
}
