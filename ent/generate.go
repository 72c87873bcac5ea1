package ent

//go:generate go tool ent generate --feature sql/upsert,sql/execquery,sql/lock,intercept,sql/versioned-migration --template ./template/scan.tmpl ./schema
