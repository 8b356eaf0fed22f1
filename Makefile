# cdev-compat: the only entry point. Targets are thin; the logic lives in scripts that run alone.
# See README.md.

.PHONY: all check deb kernel matrix soak test bench migrate mutants clean host-clean

all:
	scripts/build-shim.sh

check:
	tests/host/run-checks.sh

deb:
	scripts/build-deb.sh

kernel:
	scripts/build-kernels.sh

# The matrix installs the .deb(s), rebuilt first when their inputs changed (cached otherwise);
# the one-arg kernels are built (or taken from their cache) by the matrix when KERNELS has them.
# make matrix: the functional suite; make matrix MODULE=DIR [MODULE_TEST=FILE]: a vendor's
# module through every kernel (both through scripts/cdev-compat-matrix, see its --help); make soak: fault injection, stress, bench (systemd boot on the stock kernels).
matrix: deb
	scripts/cdev-compat-matrix $(if $(MODULE),--module "$(MODULE)") $(if $(MODULE_TEST),--test "$(MODULE_TEST)")

soak: deb
	tests/matrix/run-soak.sh

test:
	tests/run-all.sh

bench:
	scripts/bench.sh

migrate:
	scripts/cdev-compat-migrate $(DRIVER)

# Mutation tests (tests/mutants/): host mutants; GUEST=1 adds the guest ones (matrix boots).
mutants:
	GUEST=$(GUEST) tests/mutants/run-mutants.sh

clean:
	rm -rf build

# Undo host-setup.sh's apt source and pin (see README.md, "The two commands").
host-clean:
	tests/matrix/host-clean.sh
