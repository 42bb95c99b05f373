package gateway

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// The start journal narrows what a killed gateway leaves unknown.
//
// A claim's grant (recipient_claims.handed) is recorded before its recipients
// are submitted, so that a gateway that dies never has one sent twice: the
// sweeper takes every granted recipient still in status 7 as submitted with an
// unknown outcome. But a grant runs ahead of the submits, so most of those were
// never handed to the SMSC. The journal records, for each claim in hand, how
// many of its recipients have been started, in a small file mapped into memory
// (MAP_SHARED): a start costs one store to memory, and the page cache keeps it
// when the process is killed (SIGKILL, a crash), though not when the host goes
// down. A gateway that finds a dead gateway's journal (its flock free) on its
// host, at start and every heartbeat, lowers each of the dead gateway's claims
// to what was started and has the sweeper settle them on its next pass: the
// recipients past it go back to the queue instead of being unknown. With no
// journal left (a lost host, a full disk) the claims settle as before.
//
// The file: a header (journalMagic, then the SHA-256 of the database's address,
// so gateways of another database sharing the directory leave it alone), then
// journalSlots slots of two 64-bit words, the claim id (0: free) and the count
// of its recipients started.
const (
	journalMagic  = "CHAPARJ1"
	journalHeader = 64
	journalSlots  = 1024
	journalSize   = journalHeader + journalSlots*16
	journalExt    = ".journal"
	// journalStaleAfter is how old a dead journal of another database must be
	// before a gateway removes it (removeIfStale).
	journalStaleAfter = 7 * 24 * time.Hour
)

// journal is one gateway's start journal.
type journal struct {
	f    *os.File
	name string // its path once complete
	mem  []byte
	mu   sync.Mutex
	free []int
}

// journalSlot is a claim's slot in the journal; nil (no journal, or every slot
// taken) records nothing, and the claim settles as without a journal.
type journalSlot struct {
	claim, started *uint64
	index          int
}

// journalScope names a database: its gateways share claim ids.
func journalScope(db string) [32]byte { return sha256.Sum256([]byte(db)) }

// openJournal creates this gateway's journal in dir and locks it for the life
// of the process.
func openJournal(dir, instance string, scope [32]byte) (*journal, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("journal dir: %w", err)
	}
	// Made under another name and renamed once locked and headed, so that no
	// other gateway takes it for a dead one's meanwhile.
	f, err := os.CreateTemp(dir, safeName(instance)+"-*.new")
	if err != nil {
		return nil, fmt.Errorf("create journal: %w", err)
	}
	j := &journal{f: f}
	if err := j.init(scope); err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return nil, err
	}
	name := strings.TrimSuffix(f.Name(), ".new") + journalExt
	if err := os.Rename(f.Name(), name); err != nil {
		j.close()
		return nil, fmt.Errorf("name journal: %w", err)
	}
	j.name = name
	return j, nil
}

// init locks the new journal, writes its header and maps its slots.
func (j *journal) init(scope [32]byte) error {
	if err := syscall.Flock(int(j.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return fmt.Errorf("lock journal: %w", err)
	}
	hdr := make([]byte, journalHeader)
	copy(hdr, journalMagic)
	copy(hdr[len(journalMagic):], scope[:])
	if _, err := j.f.WriteAt(hdr, 0); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	if err := j.f.Truncate(journalSize); err != nil {
		return fmt.Errorf("size journal: %w", err)
	}
	mem, err := syscall.Mmap(int(j.f.Fd()), 0, journalSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return fmt.Errorf("map journal: %w", err)
	}
	j.mem = mem
	j.free = make([]int, journalSlots)
	for i := range j.free {
		j.free[i] = journalSlots - 1 - i
	}
	return nil
}

// take gives claim a slot with nothing started.
func (j *journal) take(claim int64) *journalSlot {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.free) == 0 {
		return nil
	}
	i := j.free[len(j.free)-1]
	j.free = j.free[:len(j.free)-1]
	off := journalHeader + i*16
	s := &journalSlot{
		claim:   (*uint64)(unsafe.Pointer(&j.mem[off])),
		started: (*uint64)(unsafe.Pointer(&j.mem[off+8])),
		index:   i,
	}
	atomic.StoreUint64(s.started, 0) // before the claim: a reader never pairs it with an old count
	atomic.StoreUint64(s.claim, uint64(claim))
	return s
}

// start records that the claim's first n recipients have been started; call it
// before the n-th is handed to the SMSC.
func (s *journalSlot) start(n int) {
	if s != nil {
		atomic.StoreUint64(s.started, uint64(n))
	}
}

// release frees the slot: the claim's outcome is in the recorder's hands.
func (j *journal) release(s *journalSlot) {
	if j == nil || s == nil {
		return
	}
	atomic.StoreUint64(s.claim, 0)
	j.mu.Lock()
	j.free = append(j.free, s.index)
	j.mu.Unlock()
}

// close removes the journal: after a graceful stop no claim is left in hand.
func (j *journal) close() {
	if j == nil {
		return
	}
	// The mapping stays until the process ends: a handler the shutdown deadline
	// gave up on may still record a start into it.
	_ = os.Remove(j.f.Name()) // the file's name before the rename
	if j.name != "" {
		_ = os.Remove(j.name)
	}
	_ = j.f.Close()
}

// journalClaim is a dead gateway's claim and the count of its recipients started.
type journalClaim struct {
	ID      int64
	Started int
}

// claimLowerer lowers dead gateways' claims to what they started (store.lowerClaims).
type claimLowerer func(ctx context.Context, claims []journalClaim) (int, error)

// recoverJournals reads the journals in dir whose gateway is gone (their lock
// free) and of scope, lowers their claims and removes them; own is this
// gateway's journal, skipped. It returns the journals read and the
// recipients that go back to the queue instead of being unknown.
func recoverJournals(ctx context.Context, dir string, scope [32]byte, own *journal, lower claimLowerer) (files, spared int, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("read journal dir: %w", err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !strings.HasSuffix(e.Name(), journalExt) || (own != nil && path == own.name) {
			continue
		}
		n, ok, rerr := recoverJournal(ctx, path, scope, lower)
		if rerr != nil {
			return files, spared, fmt.Errorf("journal %s: %w", e.Name(), rerr)
		}
		if ok {
			files++
			spared += n
		}
	}
	return files, spared, nil
}

// recoverJournal handles one journal; ok is false when its gateway still runs
// or it belongs to another database.
func recoverJournal(ctx context.Context, path string, scope [32]byte, lower claimLowerer) (spared int, ok bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil // another gateway read it first
	}
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	// The header first, without the lock: another database's journals are
	// passed over at the cost of one small read each round.
	hdr := make([]byte, journalHeader)
	if _, err := f.ReadAt(hdr, 0); err != nil || !ofScope(hdr, scope) {
		removeIfStale(f, path)
		return 0, false, nil
	}
	if !lockFree(f) {
		return 0, false, nil // its gateway is alive
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil // read and removed while this one waited for the lock
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false, err
	}
	if claims := parseJournal(data); len(claims) > 0 {
		if spared, err = lower(ctx, claims); err != nil {
			return 0, false, err // kept for the next round
		}
	}
	return spared, true, os.Remove(path)
}

// lockFree takes the journal's lock, which its gateway holds while it lives.
func lockFree(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// removeIfStale removes a journal of another database whose gateway is gone,
// once journalStaleAfter old (its own gateways would have read it by then).
func removeIfStale(f *os.File, path string) {
	if st, err := f.Stat(); err == nil && time.Since(st.ModTime()) > journalStaleAfter && lockFree(f) {
		_ = os.Remove(path)
	}
}

// ofScope reports whether hdr heads a journal of the database named by scope.
func ofScope(hdr []byte, scope [32]byte) bool {
	return len(hdr) >= journalHeader && bytes.Equal(hdr[:len(journalMagic)], []byte(journalMagic)) &&
		bytes.Equal(hdr[len(journalMagic):len(journalMagic)+32], scope[:])
}

// parseJournal returns the claims of a journal whose header was checked.
func parseJournal(data []byte) (claims []journalClaim) {
	for off := journalHeader; off+16 <= len(data); off += 16 {
		id := binary.NativeEndian.Uint64(data[off:])
		if id != 0 {
			claims = append(claims, journalClaim{ID: int64(id), Started: int(binary.NativeEndian.Uint64(data[off+8:]))})
		}
	}
	return claims
}

// safeName keeps letters, digits, '-' and '.' of an instance id for a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
}

// openJournal settles what dead gateways on this host left in hand, then opens
// this gateway's journal; without one (no directory set, or it cannot be
// written) the gateway runs as before, its grants unknown if it is killed.
func (g *Gateway) openJournal() {
	if g.cfg.JournalDir == "" {
		return
	}
	cc := g.deps.Pool.Config().ConnConfig
	g.journalScope = journalScope(fmt.Sprintf("%s:%d/%s", cc.Host, cc.Port, cc.Database))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g.recoverJournals(ctx)
	j, err := openJournal(g.cfg.JournalDir, g.cfg.InstanceID, g.journalScope)
	if err != nil {
		g.log.Warn("gateway: no start journal: a kill leaves every granted recipient unknown", "dir", g.cfg.JournalDir, "err", err)
		return
	}
	g.handler.journal = j
}

// recoverJournals reads the journals of dead gateways on this host (at start
// and with every heartbeat).
func (g *Gateway) recoverJournals(ctx context.Context) {
	if g.cfg.JournalDir == "" {
		return
	}
	files, spared, err := recoverJournals(ctx, g.cfg.JournalDir, g.journalScope, g.handler.journal, g.handler.store.lowerClaims)
	if err != nil && ctx.Err() == nil {
		g.log.Warn("gateway: reading a dead gateway's start journal", "err", err)
	}
	if files > 0 {
		g.log.Warn("gateway: a dead gateway's claims lowered to what its start journal says it started",
			"journals", files, "requeued", spared)
	}
}
