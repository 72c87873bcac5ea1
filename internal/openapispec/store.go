package openapispec

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"quire/ent"
	"quire/ent/openapispec"
	"quire/ent/openapispecblob"
	"quire/ent/openapispecversion"
	"quire/internal/catalog"
	"quire/internal/types"
)

// store records a processed specification: complete and without errors,
// and, when its content differs from its latest version's, a new version
// whose files' texts are stored once per content (blobs shared by every
// version and specification holding the same text). It returns errStale
// when the specification's source changed since the job was asked for.
func (s *Service) store(ctx context.Context, a jobArgs, sp *ent.OpenAPISpec, c *collection) error {
	created := false
	err := s.storeVersion(ctx, a, sp, c, &created)
	if err == nil && created && s.OnNewVersion != nil {
		// The version is stored: what follows it (the search index of the
		// pages computed from it) is caught up later when it fails.
		if herr := s.OnNewVersion(ctx, sp.OrganizationID, sp.Slug); herr != nil {
			s.Log.Error("after a new OpenAPI version", "spec", sp.ID, "error", herr.Error())
		}
	}
	return err
}

// storeVersion is store; created reports a new version.
func (s *Service) storeVersion(ctx context.Context, a jobArgs, sp *ent.OpenAPISpec, c *collection, created *bool) error {
	files, root := c.filesystem()
	hash := contentHash(files, root)
	size := 0
	for _, t := range files {
		size += len(t)
	}
	return catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		now := s.Now()
		// Updating first takes the row's lock: a concurrent change of the
		// source waits, and sees this version.
		n, err := tx.OpenAPISpec.Update().Where(openapispec.ID(a.Spec), openapispec.Generation(a.Generation)).
			SetProcessingState(StateComplete).SetLastProcessedAt(now).ClearLastProcessErrorCode().
			SetLastProcessedErrors([]types.SpecError{}).SetUpdatedAt(now).Save(ctx)
		if err != nil {
			return fmt.Errorf("record processing: %w", err)
		}
		if n == 0 {
			return errStale
		}
		last, err := tx.OpenAPISpecVersion.Query().Where(openapispecversion.SpecID(sp.ID)).
			Order(ent.Desc(openapispecversion.FieldCreatedAt), ent.Desc(openapispecversion.FieldID)).First(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return fmt.Errorf("read the latest version: %w", err)
		}
		if last != nil && last.ContentHash == hash {
			return nil
		}
		if err := insertBlobs(ctx, tx, files); err != nil {
			return err
		}
		vc := tx.OpenAPISpecVersion.Create().SetSpecID(sp.ID).SetRoot(root).SetContentHash(hash).
			SetSize(int64(size)).SetFileCount(len(files)).SetCreatedAt(now)
		if c.files[0].final != nil {
			vc.SetSourceURL(c.files[0].final.String())
		}
		v, err := vc.Save(ctx)
		if err != nil {
			return fmt.Errorf("store version: %w", err)
		}
		paths := slices.Sorted(maps.Keys(files))
		for len(paths) > 0 {
			part := paths[:min(len(paths), chunk)]
			paths = paths[len(part):]
			batch := make([]*ent.OpenAPISpecFileCreate, len(part))
			for i, p := range part {
				batch[i] = tx.OpenAPISpecFile.Create().SetVersionID(v.ID).SetPath(p).SetBlobID(hashText(files[p]))
			}
			if err := tx.OpenAPISpecFile.CreateBulk(batch...).Exec(ctx); err != nil {
				return fmt.Errorf("store files: %w", err)
			}
		}
		*created = true
		return tx.OpenAPISpec.UpdateOneID(sp.ID).SetLastVersionID(v.ID).Exec(ctx)
	})
}

// insertBlobs stores the texts not stored yet, in batches of at most
// chunk rows and about 8 MB.
func insertBlobs(ctx context.Context, tx *ent.Tx, files map[string]string) error {
	texts := map[string]string{}
	for _, t := range files {
		texts[hashText(t)] = t
	}
	hashes := slices.Sorted(maps.Keys(texts))
	for len(hashes) > 0 {
		var batch []*ent.OpenAPISpecBlobCreate
		size := 0
		for len(hashes) > 0 && len(batch) < chunk && (size < 8<<20 || len(batch) == 0) {
			h := hashes[0]
			hashes = hashes[1:]
			size += len(texts[h])
			batch = append(batch, tx.OpenAPISpecBlob.Create().SetID(h).SetText(texts[h]).SetSize(int64(len(texts[h]))))
		}
		// An existing text is set to itself (Ignore: an update, where DO
		// NOTHING would skip it): that locks its row until this commits,
		// so a delete collecting unused texts at the same time waits and
		// then sees this version's files instead of removing a text this
		// version is about to hold (PostgreSQL; SQLite has one writer).
		upsert := tx.OpenAPISpecBlob.CreateBulk(batch...).OnConflictColumns(openapispecblob.FieldID).Ignore()
		if err := upsert.Exec(ctx); err != nil {
			return fmt.Errorf("store file texts: %w", err)
		}
	}
	return nil
}

func hashText(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// contentHash identifies a version's content: its root and every path
// with its text, length-prefixed so that no two contents hash alike.
func contentHash(files map[string]string, root string) string {
	h := sha256.New()
	var n [8]byte
	write := func(s string) {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write(root)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		write(p)
		write(files[p])
	}
	return hex.EncodeToString(h.Sum(nil))
}
