package conversations

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/changerequest"
	"quire/ent/conversation"
	"quire/ent/conversationcorpus"
	"quire/ent/conversationissue"
	"quire/ent/issuescluster"
	"quire/ent/schema"
	"quire/internal/db"
	"quire/internal/jobs"
	"quire/internal/textcluster"
)

// BatchSize is how many conversations one transaction of the analysis
// reads: a long backlog is analysed in steps, each committed.
const BatchSize = 50

// Analyse returns the handler of KindAnalyse: it analyses, batch after
// batch, the organization's conversations that are new or changed since
// their last analysis, reporting its progress, until none is left.
func (s *Service) Analyse() jobs.Handler {
	return func(ctx context.Context, run jobs.Run) error {
		var a analyseArgs
		if err := run.Args(&a); err != nil || a.Organization == "" {
			return jobs.Permanent(fmt.Errorf("arguments of %s: %v", KindAnalyse, err))
		}
		done := 0
		for {
			n, left, err := s.AnalyseBatch(ctx, a.Organization, BatchSize)
			if err != nil {
				return err
			}
			done += n
			if left == 0 || n == 0 {
				return nil
			}
			if err := run.Progress(ctx, float64(done)/float64(done+left), fmt.Sprintf("analysed %d conversations, %d left", done, left)); err != nil {
				return err
			}
		}
	}
}

// lockedRow locks the rows a query reads until the transaction ends, on
// PostgreSQL; SQLite's write transactions are serialized already.
func lockedRow(s *entsql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.For(entsql.LockUpdate)
	}
}

// AnalyseBatch analyses up to limit pending conversations of an
// organization, oldest first, in one transaction that holds the
// organization's analysis state locked (so batches of one organization run
// one at a time, and the same conversations in the same order always give
// the same clusters). It returns how many it analysed and how many are
// still pending.
func (s *Service) AnalyseBatch(ctx context.Context, orgID string, limit int) (done, left int, err error) {
	err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		a := &analysis{tx: tx, org: orgID, now: s.Now(), touched: map[string]*clusterState{}}
		if err := a.load(ctx); err != nil {
			return err
		}
		pending, err := pendingBatch(ctx, tx, orgID, limit)
		if err != nil {
			return err
		}
		for _, c := range pending {
			if err := a.conversation(ctx, c); err != nil {
				return err
			}
		}
		if err := a.save(ctx); err != nil {
			return err
		}
		n, err := tx.Conversation.Query().Where(conversation.OrganizationID(orgID), conversation.Pending(true)).Count(ctx)
		if err != nil {
			return fmt.Errorf("count pending conversations: %w", err)
		}
		done, left = len(pending), n
		return nil
	})
	return done, left, err
}

// pendingBatch reads the first limit pending conversations of an
// organization, by when they happened and then by their sender's id
// compared byte by byte (not by the database's collation), so that both
// databases analyse them in the same order.
func pendingBatch(ctx context.Context, tx *ent.Tx, orgID string, limit int) ([]*ent.Conversation, error) {
	var rows []struct {
		ID         string    `json:"id"`
		ExternalID string    `json:"external_id"`
		CreatedAt  time.Time `json:"created_at"`
	}
	err := tx.Conversation.Query().Where(conversation.OrganizationID(orgID), conversation.Pending(true)).
		Select(conversation.FieldID, conversation.FieldExternalID, conversation.FieldCreatedAt).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("read pending conversations: %w", err)
	}
	sort.Slice(rows, func(i, j int) bool {
		if !rows[i].CreatedAt.Equal(rows[j].CreatedAt) {
			return rows[i].CreatedAt.Before(rows[j].CreatedAt)
		}
		return rows[i].ExternalID < rows[j].ExternalID
	})
	if len(rows) > limit {
		rows = rows[:limit]
	}
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]string, len(rows))
	pos := map[string]int{}
	for i, r := range rows {
		ids[i], pos[r.ID] = r.ID, i
	}
	list, err := tx.Conversation.Query().Where(conversation.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read pending conversations: %w", err)
	}
	sort.Slice(list, func(i, j int) bool { return pos[list[i].ID] < pos[list[j].ID] })
	return list, nil
}

// analysis is one batch being analysed.
type analysis struct {
	tx      *ent.Tx
	org     string
	now     time.Time
	corpus  *ent.ConversationCorpus
	c       *textcluster.Corpus
	nextSeq int
	// clusters of the organization, in creation order.
	clusters []*clusterState
	touched  map[string]*clusterState
	issues   []*ent.ConversationIssueCreate
}

// clusterState is a cluster being changed.
type clusterState struct {
	row   *ent.IssuesCluster
	isNew bool
	sum   textcluster.Vector
}

func (a *analysis) load(ctx context.Context) error {
	tx := a.tx
	if err := tx.ConversationCorpus.Create().SetID(a.org).SetDf(map[string]int{}).
		OnConflictColumns(conversationcorpus.FieldID).Ignore().Exec(ctx); err != nil {
		return fmt.Errorf("analysis state: %w", err)
	}
	corpus, err := tx.ConversationCorpus.Query().Where(conversationcorpus.ID(a.org), lockedRow).Only(ctx)
	if err != nil {
		return fmt.Errorf("lock analysis state: %w", err)
	}
	a.corpus = corpus
	a.c = &textcluster.Corpus{N: corpus.Documents, DF: corpus.Df}
	if a.c.DF == nil {
		a.c.DF = map[string]int{}
	}
	a.nextSeq = corpus.NextCluster
	rows, err := tx.IssuesCluster.Query().Where(issuescluster.OrganizationID(a.org)).
		Order(ent.Asc(issuescluster.FieldSeq)).All(ctx)
	if err != nil {
		return fmt.Errorf("read clusters: %w", err)
	}
	for _, r := range rows {
		a.clusters = append(a.clusters, &clusterState{row: r, sum: textcluster.Vector(r.Centroid)})
	}
	return nil
}

func (a *analysis) byID(id string) *clusterState {
	for _, c := range a.clusters {
		if c.row.ID == id {
			return c
		}
	}
	return nil
}

func (a *analysis) touch(c *clusterState) {
	a.touched[c.row.ID] = c
}

// conversation analyses one conversation: its previous issues leave their
// clusters, its issues are found again and each joins the closest cluster
// or starts one.
func (a *analysis) conversation(ctx context.Context, conv *ent.Conversation) error {
	old, err := a.tx.ConversationIssue.Query().Where(conversationissue.ConversationID(conv.ID)).All(ctx)
	if err != nil {
		return fmt.Errorf("read issues: %w", err)
	}
	left := map[string]bool{}
	for _, is := range old {
		terms := textcluster.Vector(is.Terms)
		a.c.RemoveDocument(terms)
		if is.ClusterID == nil {
			continue
		}
		cl := a.byID(*is.ClusterID)
		if cl == nil {
			continue
		}
		cl.sum.Sub(textcluster.TF(terms))
		r := cl.row
		r.IssueCount--
		dec(r.Sources, is.Source)
		dec(r.Impacts, is.Impact)
		dec(r.Weeks, weekStart(is.CreatedAt).Format(time.DateOnly))
		for stem, form := range is.Forms {
			if _, ok := r.Forms[stem][form]; !ok {
				form = firstKey(r.Forms[stem])
			}
			dec(r.Forms[stem], form)
		}
		kept := r.Examples[:0]
		for _, e := range r.Examples {
			if e.Issue != is.ID {
				kept = append(kept, e)
			}
		}
		r.Examples = kept
		left[r.ID] = true
		a.touch(cl)
	}
	for id := range left {
		a.byID(id).row.ConversationCount--
	}
	if len(old) > 0 {
		if _, err := a.tx.ConversationIssue.Delete().Where(conversationissue.ConversationID(conv.ID)).Exec(ctx); err != nil {
			return fmt.Errorf("delete issues: %w", err)
		}
	}

	subject := ""
	if conv.Subject != nil {
		subject = *conv.Subject
	}
	parts := make([]Part, len(conv.Parts))
	for i, p := range conv.Parts {
		parts[i] = Part{Role: p.Role, Body: p.Body}
	}
	found := Extract(subject, parts)
	name := "conversation " + conv.ExternalID
	if subject != "" {
		name = fmt.Sprintf("the conversation %q", subject)
	}
	joined := map[string]bool{}
	impact := ""
	for i, f := range found {
		id := newIssueID()
		a.c.AddDocument(f.Terms)
		tf := textcluster.TF(f.Terms)
		centroids := make([]textcluster.Centroid, len(a.clusters))
		for j, c := range a.clusters {
			centroids[j] = textcluster.Centroid{Seq: c.row.Seq, Sum: c.sum}
		}
		m := textcluster.Assign(tf, centroids, a.c, textcluster.Threshold)
		var cl *clusterState
		if m.Index >= 0 {
			cl = a.clusters[m.Index]
		} else {
			cl = a.newCluster()
		}
		cl.sum.Add(tf)
		r := cl.row
		r.IssueCount++
		r.Sources[conv.Source]++
		r.Impacts[f.Impact]++
		r.Weeks[weekStart(conv.CreatedAt).Format(time.DateOnly)]++
		for stem, form := range f.Forms {
			if r.Forms[stem] == nil {
				r.Forms[stem] = map[string]int{}
			}
			if _, ok := r.Forms[stem][form]; !ok && len(r.Forms[stem]) >= maxForms {
				// Too many spellings: count it as the first one kept.
				form = firstKey(r.Forms[stem])
				f.Forms[stem] = form
			}
			r.Forms[stem][form]++
		}
		r.Examples = append(r.Examples, schema.ClusterExample{Issue: id, Title: f.Title, Terms: f.Terms})
		if !joined[r.ID] {
			joined[r.ID] = true
			r.ConversationCount++
		}
		a.touch(cl)
		if impactRank(f.Impact) > impactRank(impact) {
			impact = f.Impact
		}
		sigs := make([]schema.IssueSignal, len(f.Signals))
		for j, sg := range f.Signals {
			sigs[j] = schema.IssueSignal{Kind: sg.Kind, Phrase: sg.Phrase}
		}
		a.issues = append(a.issues, a.tx.ConversationIssue.Create().SetID(id).SetOrganizationID(a.org).
			SetConversationID(conv.ID).SetClusterID(r.ID).SetOrdinal(i).SetTitle(f.Title).
			SetDetails(detailsDoc(f, name)).SetExcerpt(joinSentences(f.Sentences)).SetImpact(f.Impact).
			SetSignals(sigs).SetTerms(f.Terms).SetForms(f.Forms).SetSource(conv.Source).SetCreatedAt(conv.CreatedAt).SetIngestedAt(conv.IngestedAt))
	}
	return a.tx.Conversation.UpdateOne(conv).SetPending(false).SetProcessedAt(a.now).SetImpact(impact).Exec(ctx)
}

func (a *analysis) newCluster() *clusterState {
	r := &ent.IssuesCluster{
		ID: newClusterID(), OrganizationID: a.org, Seq: a.nextSeq, Centroid: map[string]float64{},
		Forms: map[string]map[string]int{}, Sources: map[string]int{}, Impacts: map[string]int{}, Weeks: map[string]int{},
		CreatedAt: a.now, UpdatedAt: a.now, Impact: ImpactLow,
	}
	a.nextSeq++
	c := &clusterState{row: r, isNew: true, sum: textcluster.Vector{}}
	a.clusters = append(a.clusters, c)
	return c
}

// save writes the issues, the clusters changed (recomputing what they
// show), and the analysis state; clusters left without issues are deleted,
// and the change requests that addressed them no longer do.
func (a *analysis) save(ctx context.Context) error {
	tx := a.tx
	ids := make([]string, 0, len(a.touched))
	for id := range a.touched {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var gone []string
	for _, id := range ids {
		cl := a.touched[id]
		r := cl.row
		if r.IssueCount <= 0 {
			if !cl.isNew {
				gone = append(gone, id)
			}
			continue
		}
		top := textcluster.KeyTerms(cl.sum, a.c, keyTerms)
		stems := make([]string, len(top))
		words := make([]string, len(top))
		for i, t := range top {
			stems[i], words[i] = t.Term, formOf(r.Forms, t.Term)
		}
		pruneWeeks(r.Weeks, a.now)
		prune(r.Forms)
		r.Examples = rankExamples(r.Examples, cl.sum, a.c)
		r.Label, r.KeyTerms, r.Icon = label(words), words, iconOf(stems)
		r.Impact = clusterImpact(r.Impacts)
		r.Summary = summaryDoc(r.Label, r.IssueCount, r.ConversationCount, r.Impacts, words, r.Examples)
		r.Centroid = cl.sum
		if cl.isNew {
			err := tx.IssuesCluster.Create().SetID(r.ID).SetOrganizationID(a.org).SetSeq(r.Seq).SetLabel(r.Label).
				SetIcon(r.Icon).SetSummary(r.Summary).SetImpact(r.Impact).SetKeyTerms(r.KeyTerms).SetCentroid(r.Centroid).
				SetForms(r.Forms).SetExamples(r.Examples).SetIssueCount(r.IssueCount).SetConversationCount(r.ConversationCount).
				SetSources(r.Sources).SetImpacts(r.Impacts).SetWeeks(r.Weeks).SetCreatedAt(a.now).SetUpdatedAt(a.now).Exec(ctx)
			if err != nil {
				return fmt.Errorf("create cluster: %w", err)
			}
			continue
		}
		err := tx.IssuesCluster.UpdateOneID(r.ID).SetLabel(r.Label).SetIcon(r.Icon).SetSummary(r.Summary).
			SetImpact(r.Impact).SetKeyTerms(r.KeyTerms).SetCentroid(r.Centroid).SetForms(r.Forms).SetExamples(r.Examples).
			SetIssueCount(r.IssueCount).SetConversationCount(r.ConversationCount).SetSources(r.Sources).
			SetImpacts(r.Impacts).SetWeeks(r.Weeks).SetUpdatedAt(a.now).Exec(ctx)
		if err != nil {
			return fmt.Errorf("update cluster: %w", err)
		}
	}
	for batch := range slices.Chunk(a.issues, 200) {
		if err := tx.ConversationIssue.CreateBulk(batch...).Exec(ctx); err != nil {
			return fmt.Errorf("store issues: %w", err)
		}
	}
	if len(gone) > 0 {
		if err := tx.ChangeRequest.Update().Where(changerequest.ConversationsIssuesClusterIn(gone...)).
			ClearConversationsIssuesCluster().Exec(ctx); err != nil {
			return fmt.Errorf("unlink change requests: %w", err)
		}
		if _, err := tx.IssuesCluster.Delete().Where(issuescluster.IDIn(gone...)).Exec(ctx); err != nil {
			return fmt.Errorf("delete empty clusters: %w", err)
		}
	}
	return tx.ConversationCorpus.UpdateOne(a.corpus).SetDocuments(a.c.N).SetDf(a.c.DF).
		SetNextCluster(a.nextSeq).SetUpdatedAt(a.now).Exec(ctx)
}

// firstKey is the first key of m in alphabetical order.
func firstKey(m map[string]int) string {
	first := ""
	for k := range m {
		if first == "" || k < first {
			first = k
		}
	}
	return first
}

func dec(m map[string]int, k string) {
	if m[k] <= 1 {
		delete(m, k)
	} else {
		m[k]--
	}
}

// pruneWeeks forgets the weeks older than the pulse shows.
func pruneWeeks(weeks map[string]int, now time.Time) {
	oldest := weekStart(now).AddDate(0, 0, -7*(MaxPulseWeeks+1)).Format(time.DateOnly)
	for w := range weeks {
		if w < oldest {
			delete(weeks, w)
		}
	}
}

// prune forgets the stems no issue of the cluster has any more.
func prune(forms map[string]map[string]int) {
	for stem, fs := range forms {
		if len(fs) == 0 {
			delete(forms, stem)
		}
	}
}

func joinSentences(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
