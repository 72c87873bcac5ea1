#!/bin/sh
echo installing
