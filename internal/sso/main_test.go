package sso_test

import (
	"os"
	"testing"

	"quire/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
