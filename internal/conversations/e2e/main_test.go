package e2e_test

import (
	"os"
	"testing"

	"quire/internal/testing/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
