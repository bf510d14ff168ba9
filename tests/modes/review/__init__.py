"""Tests of the review feature's package."""
