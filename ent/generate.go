package ent

//go:generate go tool ent generate --feature sql/upsert,sql/execquery,sql/lock,intercept ./schema
