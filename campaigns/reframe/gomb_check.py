"""A ReFrame test that runs gomb and reads its figures of merit from the
records gomb writes (not from its text tables).

Copy this directory into your ReFrame checks (or point -c at it), set the
references of your partitions below, and run e.g.

    reframe -c campaigns/reframe/gomb_check.py -r

The test runs 'gomb imb' with -json under the partition's launcher
(ReFrame's srun or mpirun), labels the run with the campaign and the cell
(so that 'gomb archive add' files the stage directory's records with the
rest of a campaign), and checks that the run ended complete. Performance:
the PingPong latency at 8 bytes and bandwidth at 4 MiB (inter-node: one
rank a node on two nodes), Allreduce's time at 1 KiB.
"""

import os
import sys

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import performance_function, run_before, sanity_function, variable

# gomb_records.py sits beside this file (ReFrame loads checks by path).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gomb_records  # noqa: E402


@rfm.simple_test
class gomb_imb_check(rfm.RunOnlyRegressionTest):
    descr = 'gomb: IMB-MPI1 PingPong and Allreduce, figures from gomb records'
    valid_systems = ['*']
    valid_prog_environs = ['*']
    num_tasks = 2
    num_tasks_per_node = 1
    # the gomb binary; reframe -S executable=/path/to/gomb
    executable = 'gomb'
    campaign = variable(str, value='reframe')
    records = 'gomb.jsonl'
    # Per partition: (reference, lower, upper, unit); lower/upper are
    # fractions of the reference (None: unbounded).
    reference = {
        '*': {
            'pingpong_8B_latency': (0, None, None, 'us'),
            'pingpong_4MiB_bandwidth': (0, None, None, 'MB/s'),
            'allreduce_1KiB_latency': (0, None, None, 'us'),
        },
        # 'mycluster:ib': {
        #     'pingpong_8B_latency': (1.2, None, 0.10, 'us'),
        #     'pingpong_4MiB_bandwidth': (12000, -0.10, None, 'MB/s'),
        #     'allreduce_1KiB_latency': (3.5, None, 0.15, 'us'),
        # },
    }
    tags = {'gomb', 'benchmark'}

    @run_before('run')
    def set_options(self):
        partition = self.current_partition.fullname if self.current_partition else 'local'
        self.executable_opts = [
            'imb', '-msglog', '3:22', '-json', self.records,
            '-campaign', self.campaign,
            '-cell', 'partition=%s,nodes=%d,ppn=%d' % (partition.replace(':', '/'), self.num_tasks // self.num_tasks_per_node,
                                                      self.num_tasks_per_node),
            'PingPong', 'Allreduce',
        ]

    def _records(self):
        return os.path.join(self.stagedir, self.records)

    @sanity_function
    def run_complete(self):
        return sn.assert_eq(gomb_records.end_status(self._records()), 'complete')

    @performance_function('us')
    def pingpong_8B_latency(self):
        return gomb_records.latency_us(self._records(), 'PingPong', 8)

    @performance_function('MB/s')
    def pingpong_4MiB_bandwidth(self):
        return gomb_records.bandwidth_mbps(self._records(), 'PingPong', 4194304)

    @performance_function('us')
    def allreduce_1KiB_latency(self):
        return gomb_records.latency_us(self._records(), 'Allreduce', 1024)
