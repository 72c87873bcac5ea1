package jobs

import (
	"quire/ent/predicate"
	"quire/ent/revision"
)

func revisionOfSpace(id string) predicate.Revision { return revision.SpaceID(id) }
