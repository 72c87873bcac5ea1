package ent

//go:generate go tool ent generate --feature sql/upsert,sql/execquery,sql/lock --template ./template/scan.tmpl ./schema
