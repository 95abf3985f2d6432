"""What an app needs around the generated stubs: a channel, decoded errors, retries, hosted games.

The stubs themselves are generated into the `damiera.v1` package by `generate_stubs.py`.
"""
