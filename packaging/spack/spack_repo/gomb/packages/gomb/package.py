# Copyright Spack Project Developers. See COPYRIGHT file for details.
#
# SPDX-License-Identifier: (Apache-2.0 OR MIT)

import os

from spack_repo.builtin.build_systems import go
from spack_repo.builtin.build_systems.go import GoPackage

from spack.package import *


class Gomb(GoPackage):
    """gomb (Go MPI Benchmarks) measures MPI communication the way IMB-MPI1
    and the OSU Micro-Benchmarks do, with their flags and text tables, over
    the MPI it was built with. It keeps every sample with its provenance as
    JSON Lines records, and compares, checks and reports on them.

    Two programs are installed: gomb, built with the MPI's compiler wrapper,
    and gomb-nompi, built without cgo, which runs the analysis commands
    (import, archive, compare, check, explain, report) on any machine."""

    homepage = "https://github.com/gomb-hpc/gomb"
    git = "https://github.com/gomb-hpc/gomb.git"

    license("BSD-3-Clause")

    version("main", branch="main")

    depends_on("c", type="build")
    depends_on("go@1.26.8:", type="build")
    # non-blocking collectives, passive-target RMA
    depends_on("mpi@3:")

    def test_version(self):
        """gomb version prints what gomb was built against"""
        gomb = which(self.prefix.bin.gomb)
        out = gomb("version", output=str.split, error=str.split)
        check_outputs(["gomb ", "MPI build:"], out)

    def test_nompi(self):
        """gomb-nompi runs the analysis commands without MPI"""
        gomb_nompi = which(join_path(self.prefix.bin, "gomb-nompi"))
        out = gomb_nompi("help", output=str.split, error=str.split)
        check_outputs(["compare", "report"], out)

    def test_pingpong(self):
        """run IMB-MPI1's PingPong on 2 ranks under the MPI's launcher"""
        mpi_bin = self.spec["mpi"].prefix.bin
        launcher = which("mpiexec", "mpirun", path=mpi_bin)
        if launcher is None:
            raise SkipTest(f"no mpiexec or mpirun in {mpi_bin}")
        args = ["-n", "2"]
        if self.spec.satisfies("^openmpi") and os.geteuid() == 0:
            # Spack's test environment drops OMPI_ALLOW_RUN_AS_ROOT (a *_ROOT variable)
            args.append("--allow-run-as-root")
        out = launcher(
            *args,
            self.prefix.bin.gomb,
            "imb",
            "-msglog",
            "0:10",
            "PingPong",
            output=str.split,
            error=str.split,
        )
        check_outputs(["Benchmarking PingPong", "#bytes"], out)


class GoBuilder(go.GoBuilder):
    def setup_build_environment(self, env: EnvironmentModifications) -> None:
        super().setup_build_environment(env)
        # Modules come from GOPROXY as go.sum pins them; Go's build cache
        # stays in the stage with the module cache (GOPATH).
        env.set("GOFLAGS", "-mod=readonly")
        env.set("GOCACHE", join_path(self.pkg.stage.path, "go-build"))

    @property
    def build_args(self):
        """Arguments for ``go build``, both programs."""
        return ["-p", str(self.pkg.module.make_jobs), "-modcacherw", "-ldflags", "-s -w"]

    def build(self, pkg: GoPackage, spec: Spec, prefix: Prefix) -> None:
        """Build gomb with the MPI's C compiler wrapper and gomb-nompi without cgo."""
        with working_dir(self.build_directory):
            pkg.module.go(
                "build",
                *self.build_args,
                "-o",
                join_path("bin", "gomb"),
                "./cmd/gomb",
                extra_env={"CGO_ENABLED": "1", "CC": spec["mpi"].mpicc},
            )
            pkg.module.go(
                "build",
                *self.build_args,
                "-o",
                join_path("bin", "gomb-nompi"),
                "./cmd/gomb",
                extra_env={"CGO_ENABLED": "0"},
            )

    def install(self, pkg: GoPackage, spec: Spec, prefix: Prefix) -> None:
        """Install both programs into prefix.bin."""
        mkdirp(prefix.bin)
        with working_dir(self.build_directory):
            install(join_path("bin", "gomb"), prefix.bin)
            install(join_path("bin", "gomb-nompi"), prefix.bin)
