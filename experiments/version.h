/* version.h -- the program version recorded with every run. */
#ifndef RULELAB_VERSION_H
#define RULELAB_VERSION_H

#define RULELAB_VERSION "0.1.0"

#endif
