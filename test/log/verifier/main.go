// Command verifier checks the registry's transparency log with the Go checksum database's own packages
// (golang.org/x/mod/sumdb/note and golang.org/x/mod/sumdb/tlog), written by nobody here: the checkpoint's
// signature by a verifier key given out of band, the root recomputed from the hash tiles, the inclusion of every
// entry of the entry bundles, the consistency with an earlier checkpoint, and, for the assets named, that each
// revision the registry serves is the entry at its logIndex.
//
//	verifier -log http://127.0.0.1:6543/api/0.1/log -vkey '<name>+<id>+<key>' [-previous FILE] [-save FILE] [-assets ID,ID]
//
// On success it prints a JSON summary and exits 0; on any failure it says why on stderr and exits 1.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/gowebpki/jcs"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const height = 8

type checkpoint struct {
	origin string
	tree   tlog.Tree
	note   []byte
}

func get(url string) ([]byte, error) {
	res, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %s", url, res.StatusCode, body)
	}
	return body, nil
}

// openCheckpoint verifies the note's signature and parses the C2SP checkpoint it holds.
func openCheckpoint(msg []byte, verifier note.Verifier) (checkpoint, error) {
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		return checkpoint{}, fmt.Errorf("the checkpoint does not verify: %w", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 {
		return checkpoint{}, fmt.Errorf("not a checkpoint: %q", n.Text)
	}
	if lines[0] != verifier.Name() {
		return checkpoint{}, fmt.Errorf("the checkpoint's origin %q is not the key's name %q", lines[0], verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 {
		return checkpoint{}, fmt.Errorf("bad tree size %q", lines[1])
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != tlog.HashSize {
		return checkpoint{}, fmt.Errorf("bad root hash %q", lines[2])
	}
	var hash tlog.Hash
	copy(hash[:], root)
	return checkpoint{origin: lines[0], tree: tlog.Tree{N: size, Hash: hash}, note: msg}, nil
}

// tiles reads C2SP tlog-tiles paths (no height in them, `entries` for data tiles) and keeps those tlog
// has checked against the tree.
type tiles struct {
	base  string
	mu    sync.Mutex
	saved map[tlog.Tile][]byte
}

func (t *tiles) Height() int { return height }

func c2spPath(tile tlog.Tile) string {
	path := strings.TrimPrefix(tile.Path(), fmt.Sprintf("tile/%d/", height))
	if tile.L == -1 {
		path = "entries/" + strings.TrimPrefix(path, "data/")
	}
	return "tile/" + path
}

func (t *tiles) ReadTiles(list []tlog.Tile) ([][]byte, error) {
	data := make([][]byte, len(list))
	for i, tile := range list {
		t.mu.Lock()
		kept, ok := t.saved[tile]
		t.mu.Unlock()
		if ok {
			data[i] = kept
			continue
		}
		body, err := get(t.base + "/" + c2spPath(tile))
		if err != nil {
			return nil, err
		}
		if tile.L >= 0 && len(body) != tile.W*tlog.HashSize {
			return nil, fmt.Errorf("tile %s holds %d bytes, not %d", c2spPath(tile), len(body), tile.W*tlog.HashSize)
		}
		data[i] = body
	}
	return data, nil
}

func (t *tiles) SaveTiles(list []tlog.Tile, data [][]byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, tile := range list {
		t.saved[tile] = data[i]
	}
}

// entries reads every entry of a tree of `size` entries from the entry bundles.
func entries(t *tiles, size int64) ([][]byte, error) {
	var all [][]byte
	for n := int64(0); n*(1<<height) < size; n++ {
		w := size - n*(1<<height)
		if w > 1<<height {
			w = 1 << height
		}
		body, err := get(t.base + "/" + c2spPath(tlog.Tile{H: height, L: -1, N: n, W: int(w)}))
		if err != nil {
			return nil, err
		}
		for len(body) > 0 {
			if len(body) < 2 {
				return nil, errors.New("an entry bundle ends inside a length")
			}
			length := int(binary.BigEndian.Uint16(body))
			if len(body) < 2+length {
				return nil, errors.New("an entry bundle ends inside an entry")
			}
			all = append(all, body[2:2+length])
			body = body[2+length:]
		}
	}
	if int64(len(all)) != size {
		return nil, fmt.Errorf("the entry bundles hold %d entries, the checkpoint %d", len(all), size)
	}
	return all, nil
}

type revision struct {
	Rev      int64           `json:"rev"`
	Date     string          `json:"date"`
	Author   string          `json:"author"`
	Changes  json.RawMessage `json:"changes"`
	LogIndex *int64          `json:"logIndex"`
}

// entryOf is the log entry of a revision as the registry serves it: JCS of the revision, changes by digest.
func entryOf(asset string, r revision) ([]byte, error) {
	changes, err := jcs.Transform(r.Changes)
	if err != nil {
		return nil, err
	}
	digest := sha256.Sum256(changes)
	text, err := json.Marshal(map[string]any{
		"asset": asset, "rev": r.Rev, "date": r.Date, "author": r.Author, "changes": hex.EncodeToString(digest[:]),
	})
	if err != nil {
		return nil, err
	}
	return jcs.Transform(text)
}

func revisionsOf(api, asset string) ([]revision, error) {
	var all []revision
	for offset := int64(0); ; {
		body, err := get(fmt.Sprintf("%s/assets/%s/revisions?limit=1000&offset=%d", api, asset, offset))
		if err != nil {
			return nil, err
		}
		var page struct {
			Data []revision `json:"data"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, err
		}
		if len(page.Data) == 0 {
			return all, nil
		}
		all = append(all, page.Data...)
		offset = page.Data[len(page.Data)-1].Rev
	}
}

func run() error {
	logURL := flag.String("log", "", "the log's URL (…/api/0.1/log)")
	vkey := flag.String("vkey", "", "the log's verifier key, obtained out of band")
	previous := flag.String("previous", "", "a checkpoint verified earlier: the new one must be consistent with it")
	save := flag.String("save", "", "where to write the checkpoint once verified")
	assets := flag.String("assets", "", "asset ids, comma-separated: each revision must be the entry at its logIndex")
	flag.Parse()
	if *logURL == "" || *vkey == "" {
		return errors.New("usage: verifier -log URL -vkey KEY [-previous FILE] [-save FILE] [-assets ID,…]")
	}
	base := strings.TrimRight(*logURL, "/")
	verifier, err := note.NewVerifier(strings.TrimSpace(*vkey))
	if err != nil {
		return fmt.Errorf("the verifier key: %w", err)
	}
	msg, err := get(base + "/checkpoint")
	if err != nil {
		return err
	}
	latest, err := openCheckpoint(msg, verifier)
	if err != nil {
		return err
	}
	size := latest.tree.N
	source := &tiles{base: base, saved: map[tlog.Tile][]byte{}}
	reader := tlog.TileHashReader(latest.tree, source)
	root, err := tlog.TreeHash(size, reader)
	if err != nil {
		return fmt.Errorf("the tree from the tiles: %w", err)
	}
	if root != latest.tree.Hash {
		return fmt.Errorf("the tiles give root %s, the checkpoint %s", root, latest.tree.Hash)
	}
	all, err := entries(source, size)
	if err != nil {
		return err
	}
	for i, entry := range all {
		proof, err := tlog.ProveRecord(size, int64(i), reader)
		if err != nil {
			return fmt.Errorf("inclusion proof of entry %d: %w", i, err)
		}
		if err := tlog.CheckRecord(proof, size, latest.tree.Hash, int64(i), tlog.RecordHash(entry)); err != nil {
			return fmt.Errorf("entry %d is not in the tree: %w", i, err)
		}
	}
	if *previous != "" {
		text, err := os.ReadFile(*previous)
		if err != nil {
			return err
		}
		earlier, err := openCheckpoint(text, verifier)
		if err != nil {
			return fmt.Errorf("the earlier checkpoint: %w", err)
		}
		if earlier.tree.N > size {
			return fmt.Errorf("the log went back from %d entries to %d", earlier.tree.N, size)
		}
		if err := checkConsistent(earlier.tree, latest.tree, reader); err != nil {
			return err
		}
	}
	checked := 0
	if *assets != "" {
		api := strings.TrimSuffix(base, "/log")
		for _, asset := range strings.Split(*assets, ",") {
			revisions, err := revisionsOf(api, asset)
			if err != nil {
				return err
			}
			for _, r := range revisions {
				if r.LogIndex == nil || *r.LogIndex >= size {
					return fmt.Errorf("revision %d of %s has no logIndex in the checkpoint of %d entries", r.Rev, asset, size)
				}
				entry, err := entryOf(asset, r)
				if err != nil {
					return err
				}
				if !bytes.Equal(entry, all[*r.LogIndex]) {
					return fmt.Errorf("revision %d of %s is not entry %d: %s != %s", r.Rev, asset, *r.LogIndex, entry, all[*r.LogIndex])
				}
				checked++
			}
		}
	}
	if *save != "" {
		if err := os.WriteFile(*save, latest.note, 0o644); err != nil {
			return err
		}
	}
	summary, _ := json.Marshal(map[string]any{
		"origin": latest.origin, "size": size, "root": base64.StdEncoding.EncodeToString(root[:]), "revisions": checked,
	})
	fmt.Println(string(summary))
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "verifier:", err)
		os.Exit(1)
	}
}

// checkConsistent checks that the later tree extends the earlier one. Every tree extends the empty tree, which has no
// consistency proof (tlog.ProveTree wants at least one entry): its root must be the hash of no data (RFC 6962 §2.1).
func checkConsistent(earlier, later tlog.Tree, reader tlog.HashReader) error {
	if earlier.N == 0 {
		if earlier.Hash != tlog.Hash(sha256.Sum256(nil)) {
			return fmt.Errorf("the log at %d entries is not consistent with the checkpoint at 0: its root is not the empty tree's", later.N)
		}
		return nil
	}
	proof, err := tlog.ProveTree(later.N, earlier.N, reader)
	if err != nil {
		return fmt.Errorf("consistency proof from %d to %d: %w", earlier.N, later.N, err)
	}
	if err := tlog.CheckTree(proof, later.N, later.Hash, earlier.N, earlier.Hash); err != nil {
		return fmt.Errorf("the log at %d entries is not consistent with the checkpoint at %d: %w", later.N, earlier.N, err)
	}
	return nil
}
