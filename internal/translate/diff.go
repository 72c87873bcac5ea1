package translate

import (
	"context"
	"encoding/json"
	"fmt"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/textcut"
)

// diff is what changed in the source since the last run: the file ops to
// write, and the texts to translate, cut into units.
type diff struct {
	fileOps []content.Op
	units   []*unit
	// pages and words count what this run translates.
	pages, words int
}

// diff compares the source with the plan's maps. Files whose version
// moved on are uploaded again and files gone from the source deleted;
// pages whose text changed are marked to translate (their documents
// copied, remapped to result ids, and cut into units).
func (s *Service) diff(ctx context.Context, p *plan) (*diff, error) {
	d := &diff{}
	if err := s.diffFiles(ctx, p, d); err != nil {
		return nil, err
	}

	// Which pages change; their documents are read at once.
	var need []string
	for _, w := range p.works {
		if p.changed(w) && w.src.Type == content.TypeDocument {
			need = append(need, w.src.Version)
		}
	}
	docs, err := s.Content.Documents(ctx, need)
	if err != nil {
		return nil, err
	}
	rules := Rules(p.t)
	for _, w := range p.works {
		if !p.changed(w) {
			continue
		}
		var doc *document.Document
		if src := docs[w.src.Version]; src != nil {
			if doc, err = copyDocument(src); err != nil {
				return nil, err
			}
		}
		if w.src.LinkTitle == "" {
			w.textHash = hashOf(w.src.Title, w.src.Description, doc)
		} else {
			// Only with a link title, so that the hashes of pages without
			// one stay those they were translated under.
			w.textHash = hashOf(w.src.Title, w.src.Description, doc, w.src.LinkTitle)
		}
		w.title, w.desc, w.linkTitle, w.doc = w.src.Title, w.src.Description, w.src.LinkTitle, doc
		if m := p.pageMaps[w.src.ID]; !w.create && !p.all && m != nil && m.TextHash == w.textHash {
			continue // moved or changed otherwise: its text stays
		}
		w.translate = true
		d.pages++
		if doc != nil {
			remapDocument(doc, p.src.ID, p.pageID, p.fileID)
		}
		sg := newSegmenter(rules)
		sg.text(w.title, func(x string) {
			if x != "" {
				w.title = textcut.Runes(x, content.MaxTitle)
			}
		})
		sg.text(w.desc, func(x string) { w.desc = textcut.Runes(x, content.MaxDescription) })
		if w.linkTitle != "" {
			sg.text(w.linkTitle, func(x string) {
				if x != "" {
					w.linkTitle = textcut.Runes(x, content.MaxLinkTitle)
				}
			})
		}
		if doc != nil {
			sg.document(doc)
		}
		for _, u := range sg.units {
			d.words += u.words
		}
		d.units = append(d.units, sg.units...)
	}
	return d, nil
}

// diffFiles uploads source files that are new or whose version moved on,
// and deletes result files whose source is gone.
func (s *Service) diffFiles(ctx context.Context, p *plan, d *diff) error {
	for _, f := range p.rev.Files {
		m := p.fileMaps[f.ID]
		mapped := m != nil && p.resFiles[m.ResultFileID] != nil
		if mapped && m.SourceVersion == f.Version {
			continue
		}
		_, data, err := s.Content.FileContent(ctx, p.rev.ID, f.ID)
		if err != nil {
			return err
		}
		if mapped {
			d.fileOps = append(d.fileOps, &content.UploadFile{File: m.ResultFileID, Name: f.Name, ContentType: f.ContentType, Data: data})
		} else {
			d.fileOps = append(d.fileOps, &content.UploadFile{NewID: p.fileID[f.ID], Name: f.Name, ContentType: f.ContentType, Data: data})
		}
	}
	srcFiles := map[string]bool{}
	for _, f := range p.rev.Files {
		srcFiles[f.ID] = true
	}
	for sid, m := range p.fileMaps {
		if !srcFiles[sid] && p.resFiles[m.ResultFileID] != nil {
			d.fileOps = append(d.fileOps, &content.DeleteFile{File: m.ResultFileID})
		}
	}
	return nil
}

// copyDocument copies a document through JSON: the run changes its copy,
// never the one the content engine may share.
func copyDocument(d *document.Document) (*document.Document, error) {
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("copy document: %w", err)
	}
	doc, err := document.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("copy document: %w", err)
	}
	return doc, nil
}
