"""The integration's actions (services): how a call finds its monitor, who may call, errors.

``services`` registers the actions and finds the monitor a call names; ``feedback``
lists and removes false-alarm marks; ``permissions`` says who may make an action act on
devices; ``errors`` is the translated error every action raises for bad input.
"""
