"""METEOR 1.5, exact with the Java jar: parameters, normalization, matchers, aligners, formula, ``Meteor``."""
