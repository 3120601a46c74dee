"""Tests of gomb_records against real records: GOMB_RECORDS names a record
file of 'gomb imb -msglog 3:22 PingPong Allreduce' on 2 ranks (the Go test
TestReFrameTemplate makes one and runs these); without it, only the
malformed-input tests run."""

import json
import os
import tempfile
import unittest

import gomb_records


class RealRecords(unittest.TestCase):
    def setUp(self):
        self.path = os.environ.get("GOMB_RECORDS")
        if not self.path:
            self.skipTest("GOMB_RECORDS is not set")
        with open(self.path, encoding="utf-8") as f:
            self.raw = [json.loads(line) for line in f if line.strip()]

    def raw_result(self, benchmark, size):
        for r in self.raw:
            if r["type"] == "result" and r["benchmark"] == benchmark and r["bytes"] == size:
                return r
        self.fail("no %s %d in the file" % (benchmark, size))

    def test_figures(self):
        pp = self.raw_result("PingPong", 8)
        self.assertEqual(gomb_records.latency_us(self.path, "PingPong", 8), pp["t_max_us"])
        big = self.raw_result("PingPong", 4194304)
        self.assertEqual(gomb_records.bandwidth_mbps(self.path, "PingPong", 4194304), big["mbytes_per_sec"])
        ar = self.raw_result("Allreduce", 1024)
        self.assertEqual(gomb_records.latency_us(self.path, "Allreduce", 1024), ar["t_avg_us"])
        self.assertGreater(gomb_records.latency_us(self.path, "PingPong", 8), 0)
        self.assertGreater(gomb_records.bandwidth_mbps(self.path, "PingPong", 4194304), 0)

    def test_run(self):
        self.assertEqual(gomb_records.end_status(self.path), "complete")
        self.assertEqual(gomb_records.labels(self.path).get("campaign"), "reframe-test")
        run, results, end = gomb_records.read(self.path)
        self.assertEqual(run["suite"], "imb")
        self.assertEqual(end["results"], len(results))

    def test_missing_figure(self):
        with self.assertRaises(gomb_records.RecordError):
            gomb_records.latency_us(self.path, "PingPong", 3)
        with self.assertRaises(gomb_records.RecordError):
            gomb_records.latency_us(self.path, "PingPong", 8, np=64)

    def test_cut_short(self):
        # a killed job: no end record, the last line torn
        lines = [json.dumps(r) for r in self.raw if r["type"] != "end"]
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write("\n".join(lines) + "\n" + lines[-1][: len(lines[-1]) // 2])
        try:
            self.assertEqual(gomb_records.end_status(f.name), "cut")
            self.assertEqual(gomb_records.latency_us(f.name, "PingPong", 8), self.raw_result("PingPong", 8)["t_max_us"])
        finally:
            os.unlink(f.name)


class Malformed(unittest.TestCase):
    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_not_records(self):
        for text in ["", "not json\n{}\n", '{"type":"run","schema":"other/v9"}\n']:
            with self.assertRaises(gomb_records.RecordError):
                gomb_records.read(self.write(text))


if __name__ == "__main__":
    unittest.main()
