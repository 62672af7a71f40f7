"""CUDA microbenchmarks generated from patterns, so a prediction can be checked on a real GPU.

``ops`` names the PTX instructions a probe can execute, ``probe`` turns patterns (or measured
rows) into cases and one self-contained ``.cu`` program, ``measure`` reads Nsight Compute's
counters back and compares them with the model. No GPU is needed to generate or test.
"""
