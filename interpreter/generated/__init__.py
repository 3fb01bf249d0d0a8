"""The generated-Python back end (issue 10): the intermediate form becomes Python source.
So far only expressions (expressions.py); nothing plays with it yet."""
