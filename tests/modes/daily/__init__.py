"""Tests of the daily mode's package."""
