"""Answers with the CPUs its process may run on."""

import os


def act(observation):
    return {"type": "cpus", "cpus": sorted(os.sched_getaffinity(0))}
